package io.sprout.boot.web;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.http.HttpRequest.BodyPublishers;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A WebFlux application answers identically on Sprout and on Reactor Netty (see {@link NettyParity}): annotated
 * controllers, functional routes and Actuator.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("io.sprout.boot.web.Engines#all")
class NettyParityIT extends NettyParity {

    @Parameter
    Engines engines;

    // --- annotated controllers ---

    @Test
    void runsSproutInThisCombinationAndNettyAsTheReference() {
        SproutWebServer server = (SproutWebServer) webServer(sprout);
        assertThat(server.config().executionMode()).isEqualTo(engines.mode());
        assertThat(server.config().threadType()).isEqualTo(engines.threads());
    }

    @Test
    void servesPlainText() throws Exception {
        ParityAnswer answer = get("/api/text").assertSame();
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.text()).isEqualTo("Hello from WebFlux");
    }

    @Test
    void servesJsonFromARecord() throws Exception {
        ParityAnswer answer = get("/api/greeting?name=Sprout").assertSame();
        assertThat(answer.header("content-type")).isEqualTo("application/json");
        assertThat(answer.text()).isEqualTo("{\"message\":\"Hello, Sprout!\"}");
    }

    @Test
    void runsTheWebFilterOnEveryAnswer() throws Exception {
        assertThat(get("/api/text").assertSame().header("x-flux-filter")).isEqualTo("passed");
        assertThat(get("/no/such/thing", "Accept", "application/json").assertSameError().header("x-flux-filter"))
                .isEqualTo("passed");
    }

    @Test
    void echoesAValidJsonBodyWith201() throws Exception {
        ParityAnswer answer = postJson("/api/people", "{\"name\":\"Ada\",\"age\":36}").assertSame();
        assertThat(answer.status()).isEqualTo(201);
        assertThat(answer.text()).isEqualTo("{\"name\":\"Ada\",\"age\":36}");
    }

    @Test
    void rejectsAnInvalidJsonBodyWith400() throws Exception {
        // One violation only: the validator reports several in no fixed order.
        ParityAnswer answer = postJson("/api/people", "{\"name\":\"\",\"age\":36}").assertSameError();
        assertThat(answer.status()).isEqualTo(400);
        assertThat(answer.text()).contains("\"path\":\"/api/people\"").contains("\"error\":\"Bad Request\"");
    }

    @Test
    void rejectsMalformedJsonWith400() throws Exception {
        assertThat(postJson("/api/people", "{\"name\":").assertSameError().status()).isEqualTo(400);
    }

    @Test
    void rejectsAnUnsupportedContentTypeWith415() throws Exception {
        ParityAnswer answer = both("POST", "/api/people", BodyPublishers.ofString("name=Ada"),
                "Content-Type", "application/x-www-form-urlencoded").assertSameError();
        assertThat(answer.status()).isEqualTo(415);
    }

    @Test
    void bindsPathVariablesAndQueryParameters() throws Exception {
        ParityAnswer answer = get("/api/users/42/posts/hello%20w%C3%B6rld?page=3&tag=a&tag=b%2Bc").assertSame();
        assertThat(answer.text())
                .isEqualTo("{\"id\":42,\"slug\":\"hello wörld\",\"page\":3,\"tags\":[\"a\",\"b+c\"]}");
    }

    @Test
    void answersFromATimer() throws Exception {
        assertThat(get("/api/delayed").assertSame().text()).isEqualTo("{\"message\":\"Hello, later!\"}");
    }

    @Test
    void setsCookies() throws Exception {
        ParityAnswer answer = get("/api/cookies").assertSame();
        assertThat(answer.headers().get("set-cookie"))
                .containsExactly("flavour=oat; Path=/; HttpOnly; SameSite=Lax", "size=large; Path=/api");
    }

    @Test
    void readsCookies() throws Exception {
        assertThat(get("/api/cookies/read", "Cookie", "flavour=oat; size=large").assertSame().text())
                .isEqualTo("oat/large");
        assertThat(get("/api/cookies/read", "Cookie", "flavour=rye").assertSame().text()).isEqualTo("rye/none");
    }

    @Test
    void answersAHeadRequestWithTheHeadersOfAGet() throws Exception {
        ParityAnswer answer = both("HEAD", "/api/greeting", BodyPublishers.noBody()).assertSame();
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.header("content-type")).isEqualTo("application/json");
        assertThat(answer.body()).isEmpty();
    }

    @Test
    void answersAnUnknownPathWithBootsErrorJson() throws Exception {
        ParityAnswer answer = get("/no/such/thing", "Accept", "application/json").assertSameError();
        assertThat(answer.status()).isEqualTo(404);
        assertThat(answer.text()).contains("\"path\":\"/no/such/thing\"");
    }

    @Test
    void answersAnUnsupportedMethodWith405() throws Exception {
        ParityAnswer answer = both("DELETE", "/api/text", BodyPublishers.noBody(), "Accept", "application/json")
                .assertSameError();
        assertThat(answer.status()).isEqualTo(405);
    }

    @Test
    void answersAFailingHandlerWithBootsErrorJson() throws Exception {
        ParityAnswer answer = get("/api/boom", "Accept", "application/json").assertSameError();
        assertThat(answer.status()).isEqualTo(500);
        assertThat(answer.text()).contains("\"path\":\"/api/boom\"").contains("\"message\":\"boom\"");
    }

    @Test
    void answersThroughTheControllersExceptionHandler() throws Exception {
        ParityAnswer answer = get("/api/items/7").assertSame();
        assertThat(answer.status()).isEqualTo(404);
        assertThat(answer.header("content-type")).isEqualTo("application/problem+json");
        assertThat(answer.text()).contains("\"detail\":\"no item 7\"");
    }

    // --- functional routes ---

    @Test
    void servesFunctionalRoutes() throws Exception {
        assertThat(get("/fn/hello").assertSame().text()).isEqualTo("Hello from a route");
        assertThat(get("/fn/items").assertSame().text())
                .isEqualTo("[{\"id\":1,\"name\":\"spade\"},{\"id\":2,\"name\":\"rake\"}]");
        assertThat(get("/fn/items/2").assertSame().text()).isEqualTo("{\"id\":2,\"name\":\"rake\"}");
        assertThat(get("/fn/items/9").assertSame().status()).isEqualTo(404);
    }

    @Test
    void createsThroughAFunctionalPostRoute() throws Exception {
        ParityAnswer answer = postJson("/fn/items", "{\"id\":3,\"name\":\"hoe\"}").assertSame();
        assertThat(answer.status()).isEqualTo(201);
        assertThat(answer.header("location")).isEqualTo("/fn/items/3");
        assertThat(answer.text()).isEqualTo("{\"id\":3,\"name\":\"hoe\"}");
    }

    /** WebFlux.fn matches methods exactly: {@code HEAD} does not reach a {@code GET} route, on either server. */
    @Test
    void answersHeadOnAFunctionalGetRouteWith404() throws Exception {
        ParityAnswer answer = both("HEAD", "/fn/items", BodyPublishers.noBody()).assertSameError();
        assertThat(answer.status()).isEqualTo(404);
        assertThat(answer.body()).isEmpty();
    }

    // --- Actuator ---

    @Test
    void exposesHealthAndInfo() throws Exception {
        ParityAnswer health = get("/actuator/health").assertSame();
        assertThat(health.header("content-type")).isEqualTo("application/vnd.spring-boot.actuator.v3+json");
        assertThat(health.text()).isEqualTo("{\"groups\":[\"liveness\",\"readiness\"],\"status\":\"UP\"}");
        assertThat(get("/actuator/info").assertSame().text()).isEqualTo("{\"app\":{\"name\":\"flux-parity\"}}");
    }

    @Test
    void linksActuatorsEndpointsWithTheAddressTheClientUsed() throws Exception {
        ParityAnswer links = get("/actuator").assertSameNamingTheirPorts();
        assertThat(links.text()).contains("\"href\":\"http://127.0.0.1:" + links.port() + "/actuator/health\"");
    }
}
