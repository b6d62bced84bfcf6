package io.sprout.boot.web;

import io.sprout.boot.fluxapp.FluxTestApplication;
import io.sprout.engine.ServerStats;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.reactor.netty.NettyReactiveWebServerFactory;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.ReactorResourceFactory;

import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublisher;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The same Spring Boot WebFlux application ({@link FluxTestApplication}) run on Sprout and on Reactor Netty, Boot's
 * default reactive server, answers every request identically: status, body and header fields. One Netty application
 * is the reference for the whole class; the Sprout application runs once in each engine combination.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("io.sprout.boot.web.Engines#all")
class NettyParityIT {

    /** How long one request may take before the test fails instead of hanging: a guard, not a speed goal. */
    private static final Duration NO_HANG = Duration.ofSeconds(30);

    /** The end of a complete chunked body: a body broken off by a failure lacks it. */
    private static final String LAST_CHUNK = "0\r\n\r\n";

    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(NO_HANG).build();

    // Static because JUnit shares nothing else between the invocations of a parameterized class, and starting a
    // Boot application per test method would start over a hundred of them for nothing.
    private static ConfigurableApplicationContext netty;
    private static ConfigurableApplicationContext sprout;

    @Parameter
    Engines engines;

    /**
     * Reactor Netty, chosen the way an application chooses a server: by declaring its factory as a bean, before which
     * Sprout's auto-configuration backs off. Its event loops are its own: the Sprout applications get Boot's
     * {@link ReactorResourceFactory} too (Reactor Netty is on the class path), which disposes Reactor Netty's global
     * loops when each of them closes, and the reference server must outlive all four.
     */
    @Configuration(proxyBeanMethods = false)
    static class OnReactorNetty {

        @Bean
        ReactorResourceFactory reactorResourceFactory() {
            ReactorResourceFactory resources = new ReactorResourceFactory();
            resources.setUseGlobalResources(false);
            return resources;
        }

        @Bean
        NettyReactiveWebServerFactory nettyReactiveWebServerFactory(ReactorResourceFactory resources) {
            NettyReactiveWebServerFactory factory = new NettyReactiveWebServerFactory();
            factory.setResourceFactory(resources);
            return factory;
        }
    }

    @BeforeAll
    static void startNetty() {
        netty = run(List.of(), FluxTestApplication.class, OnReactorNetty.class);
        assertThat(webServer(netty).getClass().getSimpleName()).isEqualTo("NettyWebServer");
    }

    @AfterAll
    static void stopNetty() {
        netty.close();
    }

    @BeforeParameterizedClassInvocation
    static void startSprout(Engines engines) {
        sprout = run(List.of("sprout.server.execution-mode=" + engines.mode().name().toLowerCase(Locale.ROOT),
                "sprout.server.thread-type=" + engines.threads().name().toLowerCase(Locale.ROOT),
                "sprout.server.thread-pool-size=16", "sprout.server.selector-threads=1"),
                FluxTestApplication.class);
    }

    /** Stops the Sprout application and checks, as every Sprout server test does, that no buffer is still leased. */
    @AfterParameterizedClassInvocation
    static void stopSprout() {
        ServerStats stats = ((SproutWebServer) webServer(sprout)).stats();
        sprout.close();
        assertThat(stats.buffersLeased()).as("buffers still leased after stop").isZero();
    }

    private static ConfigurableApplicationContext run(List<String> engineProperties, Class<?>... sources) {
        List<String> properties = new ArrayList<>(List.of("server.port=0", "spring.main.banner-mode=off",
                "spring.main.register-shutdown-hook=false", "spring.web.error.include-message=always",
                "management.endpoints.web.exposure.include=health,info", "management.info.env.enabled=true",
                "info.app.name=flux-parity", "spring.web.resources.static-locations=classpath:/flux-static/"));
        properties.addAll(engineProperties);
        // REACTIVE by hand: the starter's test class path has Spring MVC too, which Boot would otherwise prefer.
        return new SpringApplicationBuilder(sources).web(WebApplicationType.REACTIVE)
                .properties(properties.toArray(String[]::new)).run();
    }

    private static WebServer webServer(ConfigurableApplicationContext context) {
        return ((WebServerApplicationContext) context).getWebServer();
    }

    // --- requests ---

    private static ParityAnswer call(ConfigurableApplicationContext application, String method, String path,
            BodyPublisher body, String... headers) throws IOException, InterruptedException {
        int port = webServer(application).getPort();
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(NO_HANG).method(method, body);
        if (headers.length > 0) {
            request.headers(headers);
        }
        return ParityAnswer.of(port, CLIENT.send(request.build(), BodyHandlers.ofByteArray()));
    }

    /** A POST with {@code Expect: 100-continue}: the body goes only once the server has said to send it. */
    private static ParityAnswer callExpectingContinue(ConfigurableApplicationContext application, byte[] body)
            throws IOException, InterruptedException {
        int port = webServer(application).getPort();
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/stream/echo"))
                .timeout(NO_HANG).expectContinue(true).header("Content-Type", "application/octet-stream")
                .POST(BodyPublishers.ofByteArray(body)).build();
        return ParityAnswer.of(port, CLIENT.send(request, BodyHandlers.ofByteArray()));
    }

    /** Writes {@code request} as it is and reads the answer until the server closes the connection. */
    private static ParityAnswer raw(ConfigurableApplicationContext application, String request) throws IOException {
        int port = webServer(application).getPort();
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout((int) NO_HANG.toMillis());
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            return ParityAnswer.parse(port, socket.getInputStream().readAllBytes());
        }
    }

    private static ParityAnswers rawBoth(String request) throws IOException {
        return new ParityAnswers(raw(sprout, request), raw(netty, request));
    }

    /** Sends the same request to both applications, Sprout first. */
    private static ParityAnswers both(String method, String path, BodyPublisher body, String... headers)
            throws IOException, InterruptedException {
        return new ParityAnswers(call(sprout, method, path, body, headers), call(netty, method, path, body, headers));
    }

    private static ParityAnswers get(String path, String... headers) throws IOException, InterruptedException {
        return both("GET", path, BodyPublishers.noBody(), headers);
    }

    private static ParityAnswers postJson(String path, String json) throws IOException, InterruptedException {
        return both("POST", path, BodyPublishers.ofString(json), "Content-Type", "application/json");
    }

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

    // --- streams ---

    @Test
    void streamsNdjson() throws Exception {
        ParityAnswer answer = get("/stream/ndjson").assertSame();
        assertThat(answer.header("content-type")).isEqualTo("application/x-ndjson");
        assertThat(answer.text()).startsWith("{\"id\":1,\"name\":\"item-1\"}\n").hasLineCount(5);
    }

    /**
     * Text is not a streaming media type to Spring, so the body is written without a flush per element: Netty
     * sends each as a chunk as it comes, Sprout buffers the five (35 bytes) and frames them with a length.
     */
    @Test
    void streamsChunkedText() throws Exception {
        ParityAnswer answer = get("/stream/text").assertSameExceptFraming();
        assertThat(answer.text()).isEqualTo("chunk0\nchunk1\nchunk2\nchunk3\nchunk4\n");
    }

    @Test
    void streamsServerSentEvents() throws Exception {
        ParityAnswer answer = get("/stream/sse", "Accept", "text/event-stream").assertSame();
        assertThat(answer.header("content-type")).startsWith("text/event-stream");
        assertThat(answer.text()).isEqualTo(
                "id:1\nevent:tick\ndata:n1\n\nid:2\nevent:tick\ndata:n2\n\nid:3\nevent:tick\ndata:n3\n\n");
    }

    @Test
    void servesALargeBodyOfKnownLength() throws Exception {
        ParityAnswer answer = get("/stream/large").assertSame();
        assertThat(answer.body()).hasSize(1024 * 1024);
        assertThat(answer.header("content-length")).isEqualTo(String.valueOf(1024 * 1024));
    }

    @Test
    void streamsALargeBody() throws Exception {
        ParityAnswer answer = get("/stream/large-stream").assertSame();
        assertThat(answer.body()).hasSize(1024 * 1024);
    }

    @Test
    void echoesAStreamedRequestBody() throws Exception {
        byte[] upload = new byte[300 * 1024 + 7];
        new Random(42).nextBytes(upload);
        ParityAnswer answer = both("POST", "/stream/echo", BodyPublishers.ofByteArray(upload),
                "Content-Type", "application/octet-stream").assertSame();
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.body()).isEqualTo(upload);
    }

    // --- what the application sees of a request ---

    @Test
    void showsTheRequestAsNettyDoes() throws Exception {
        ParityAnswer answer = get("/req/info?b=2&a=1&a=%C3%A9&empty=&flag", "X-Many", "one", "X-Many", "two, three",
                "Cookie", "c1=v1; c2=v2").assertSameNamingTheirPorts();
        assertThat(answer.text()).contains("\"method\":\"GET\"", "\"path\":\"/req/info\"",
                "\"rawQuery\":\"b=2&a=1&a=%C3%A9&empty=&flag\"",
                "\"query\":{\"a\":[\"1\",\"é\"],\"b\":[\"2\"],\"empty\":[\"\"],\"flag\":[null]}",
                "\"cookies\":[\"c1\",\"c2\"]", "\"many\":[\"one\",\"two, three\"]", "\"remote\":\"127.0.0.1\"",
                "\"localPortIsTheHostsPort\":true", "\"secure\":false");
    }

    @Test
    void readsAUrlEncodedForm() throws Exception {
        ParityAnswer answer = both("POST", "/req/form",
                BodyPublishers.ofString("name=Gr%C3%A9goire&city=S%C3%A8te&x=1&x=2"), "Content-Type", "application/x-www-form-urlencoded").assertSame();
        assertThat(answer.text()).isEqualTo("{\"city\":[\"Sète\"],\"name\":[\"Grégoire\"],\"x\":[\"1\",\"2\"]}");
    }

    @Test
    void readsAMultipartUpload() throws Exception {
        String boundary = "parity-boundary";
        String body = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhello\r\n"
                + "--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"data.bin\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n" + "x".repeat(70_000)
                + "\r\n--" + boundary + "--\r\n";
        ParityAnswer answer = both("POST", "/req/multipart", BodyPublishers.ofString(body),
                "Content-Type", "multipart/form-data; boundary=" + boundary).assertSame();
        assertThat(answer.text()).isEqualTo("note=hello\nfile=data.bin:70000");
    }

    @Test
    void decodesATextBodyInTheCharsetItDeclares() throws Exception {
        ParityAnswer answer = both("POST", "/req/text",
                BodyPublishers.ofByteArray("café crème".getBytes(StandardCharsets.ISO_8859_1)),
                "Content-Type", "text/plain;charset=ISO-8859-1").assertSame();
        assertThat(answer.text()).isEqualTo("CAFÉ CRÈME");
    }

    @Test
    void answersExpectContinueAndEchoes() throws Exception {
        byte[] upload = new byte[40_000];
        new Random(7).nextBytes(upload);
        ParityAnswers answers = new ParityAnswers(callExpectingContinue(sprout, upload),
                callExpectingContinue(netty, upload));
        assertThat(answers.assertSame().body()).isEqualTo(upload);
    }

    // --- the shape of the answer ---

    @Test
    void answersNoContent() throws Exception {
        ParityAnswer answer = get("/res/none").assertSame();
        assertThat(answer.status()).isEqualTo(204);
        assertThat(answer.body()).isEmpty();
    }

    @Test
    void answersAnEmptyMonoWithAnEmptyBody() throws Exception {
        ParityAnswer answer = get("/res/empty").assertSame();
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.body()).isEmpty();
    }

    @Test
    void answersNotModifiedForAMatchingEtag() throws Exception {
        assertThat(get("/res/tagged").assertSame().header("etag")).isEqualTo("\"v1\"");
        ParityAnswer answer = get("/res/tagged", "If-None-Match", "\"v1\"").assertSame();
        assertThat(answer.status()).isEqualTo(304);
        assertThat(answer.body()).isEmpty();
    }

    @Test
    void redirects() throws Exception {
        ParityAnswer answer = get("/res/redirect").assertSame();
        assertThat(answer.status()).isEqualTo(302);
        assertThat(answer.header("location")).isEqualTo("/api/text");
    }

    @Test
    void sendsRepeatedAndListHeaderFields() throws Exception {
        ParityAnswer answer = get("/res/fields").assertSame();
        assertThat(answer.headers().get("x-multi")).containsExactly("a", "b");
        assertThat(answer.headers().get("x-list")).containsExactly("c, d");
    }

    @Test
    void sendsAnUnusualStatus() throws Exception {
        ParityAnswer answer = get("/res/teapot").assertSame();
        assertThat(answer.status()).isEqualTo(418);
        assertThat(answer.text()).isEqualTo("short and stout");
    }

    // --- static resources (a file: Spring writes it through ZeroCopyHttpOutputMessage) ---

    @Test
    void servesAStaticFile() throws Exception {
        ParityAnswer answer = get("/parity.txt").assertSame();
        assertThat(answer.body()).hasSize(8000);
        assertThat(answer.header("last-modified")).isNotNull();
    }

    @Test
    void servesARangeOfAStaticFile() throws Exception {
        ParityAnswer answer = get("/parity.txt", "Range", "bytes=40-79").assertSame();
        assertThat(answer.status()).isEqualTo(206);
        assertThat(answer.header("content-range")).isEqualTo("bytes 40-79/8000");
        assertThat(answer.text()).isEqualTo("static line 0001 of the parity resource\n");
    }

    @Test
    void answersHeadForAStaticFile() throws Exception {
        ParityAnswer answer = both("HEAD", "/parity.txt", BodyPublishers.noBody()).assertSame();
        assertThat(answer.header("content-length")).isEqualTo("8000");
        assertThat(answer.body()).isEmpty();
    }

    // --- where the two servers differ, on purpose or not: each case says which ---

    /**
     * HTTP/1.0 closes after the answer on both; Sprout also says so with {@code Connection: close}, which Netty leaves
     * implicit. Both are right (RFC 9112 §9.3), so that one field is left out.
     */
    @Test
    void answersHttp10AndCloses() throws Exception {
        ParityAnswers answers = rawBoth("GET /api/text HTTP/1.0\r\n\r\n");
        assertThat(answers.sprout().headers().get("connection")).containsExactly("close");
        ParityAnswers withoutConnection = new ParityAnswers(answers.sprout().without("connection"), answers.netty());
        assertThat(withoutConnection.assertSame().text()).isEqualTo("Hello from WebFlux");
    }

    /**
     * A streamed body for an HTTP/1.0 client: Sprout ends it by closing the connection, as RFC 9112 §6.1 requires
     * ("A server MUST NOT send a response containing Transfer-Encoding unless the corresponding request indicates
     * HTTP/1.1"); Reactor Netty 1.3 sends it chunked, which an HTTP/1.0 client cannot read. Netty is the one that
     * is wrong here, so only Sprout's answer is checked.
     */
    @Test
    void streamsToAnHttp10ClientWithoutChunks() throws Exception {
        ParityAnswer answer = raw(sprout, "GET /stream/ndjson HTTP/1.0\r\n\r\n");
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.headers()).doesNotContainKeys("transfer-encoding", "content-length");
        assertThat(answer.text()).startsWith("{\"id\":1,\"name\":\"item-1\"}\n").hasLineCount(5);
    }

    /**
     * An HTTP/1.1 request without {@code Host}: Sprout answers 400, as RFC 9112 §3.2 requires; Netty serves it.
     * Sprout's is the required behaviour; the case documents the difference.
     */
    @Test
    void rejectsAnHttp11RequestWithoutHostWhereNettyServesIt() throws Exception {
        ParityAnswers answers = rawBoth("GET /api/text HTTP/1.1\r\nConnection: close\r\n\r\n");
        assertThat(answers.sprout().status()).isEqualTo(400);
        assertThat(answers.netty().status()).isEqualTo(200);
    }

    /**
     * A text stream that fails after two elements. Netty has sent the head and both chunks by then and can only
     * break the connection off, leaving a 200 with a truncated body. Sprout still holds the two elements in its
     * response buffer (text is written without flushes, see {@link #streamsChunkedText()}), so nothing has left it
     * and it answers what happened: a 500 with an empty body. A deliberate difference; Sprout's is the more truthful.
     */
    @Test
    void answersAStreamThatFailsBeforeAnyFlushWith500() throws Exception {
        String request = "GET /stream/broken-text HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n";
        ParityAnswers answers = rawBoth(request);
        // Netty's exact bytes are its own race; what matters is that it committed a 200 and broke the body off.
        assertThat(answers.netty().status()).isEqualTo(200);
        assertThat(answers.netty().text()).startsWith("7\r\nchunk0\n\r\n").doesNotEndWith(LAST_CHUNK);
        assertThat(answers.sprout().status()).isEqualTo(500);
        assertThat(answers.sprout().header("content-length")).isEqualTo("0");
    }

    /**
     * An NDJSON stream (flushed element by element) that fails right after its second element: both servers send
     * both elements and break the chunked body off (no last chunk). Sprout once sent only the first in most runs:
     * the failure, handed to the exchange's worker, aborted before the second element's flush; what was written is
     * now sent before the abort.
     */
    @Test
    void breaksOffAFlushedStreamThatFails() throws Exception {
        ParityAnswers answers = rawBoth(
                "GET /stream/broken-ndjson HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n");
        String first = "19\r\n{\"id\":1,\"name\":\"item-1\"}\n\r\n";
        String second = "19\r\n{\"id\":2,\"name\":\"item-2\"}\n\r\n";
        assertThat(answers.netty().status()).isEqualTo(200);
        assertThat(answers.netty().text()).isEqualTo(first + second).doesNotEndWith(LAST_CHUNK);
        assertThat(answers.sprout().status()).isEqualTo(200);
        assertThat(answers.sprout().header("transfer-encoding")).isEqualTo("chunked");
        assertThat(answers.sprout().text()).isEqualTo(first + second).doesNotEndWith(LAST_CHUNK);
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
