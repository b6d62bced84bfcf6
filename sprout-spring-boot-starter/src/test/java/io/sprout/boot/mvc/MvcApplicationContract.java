package io.sprout.boot.mvc;

import io.sprout.boot.mvcapp.MvcTestApplication;
import io.sprout.boot.web.SproutWebServer;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.server.context.WebServerApplicationContext;

import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Spring MVC application test: every endpoint kind, run by each of the four subclasses in one execution
 * mode and thread type.
 */
@SpringBootTest(classes = MvcTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"spring.servlet.multipart.max-file-size=1KB", "spring.web.error.include-message=always",
                "management.endpoints.web.exposure.include=metrics",
                "sprout.server.min-body-data-rate-grace-period=1s"})
abstract class MvcApplicationContract {

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @LocalServerPort
    int port;

    @Autowired
    WebServerApplicationContext context;

    /** The execution mode and thread type the subclass configured, e.g. {@code "NIO/VIRTUAL"}. */
    abstract String expectedEngine();

    private HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return client.send(request.timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    private HttpRequest.Builder get(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
    }

    @Test
    void runsOnSproutWithTheConfiguredEngine() {
        assertThat(context.getWebServer()).isInstanceOf(SproutWebServer.class);
        var config = ((SproutWebServer) context.getWebServer()).config();
        assertThat(config.executionMode() + "/" + config.threadType()).isEqualTo(expectedEngine());
    }

    @Test
    void servesJsonThroughJackson() throws Exception {
        HttpResponse<String> response = send(get("/api/greeting?name=Sprout"));
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/json"));
        assertThat(response.body()).isEqualTo("{\"message\":\"Hello, Sprout!\"}");
    }

    @Test
    void answersHeadWithHeadersButNoBody() throws Exception {
        HttpResponse<String> response = send(get("/api/greeting").method("HEAD", HttpRequest.BodyPublishers.noBody()));
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).isPresent();
        assertThat(response.body()).isEmpty();
    }

    @Test
    void filterRunsForApiRequests() throws Exception {
        HttpResponse<String> response = send(get("/api/greeting"));
        assertThat(response.headers().firstValue("X-Sprout-Filter")).hasValue("passed");
    }

    @Test
    void acceptsValidJsonBody() throws Exception {
        HttpResponse<String> response = send(get("/api/people").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"Ada\",\"age\":36}")));
        assertThat(response.statusCode()).isEqualTo(201);
        assertThat(response.body()).isEqualTo("{\"name\":\"Ada\",\"age\":36}");
    }

    /**
     * A body slower than the minimum rate fails the controller's read; the answer is the engine's 408 with
     * {@code Connection: close}, not the 500 an ordinary exception would get from the error page.
     */
    @Test
    void answersABodyThatStallsWith408() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(15_000);
            socket.getOutputStream().write(("POST /api/people HTTP/1.1\r\nHost: test\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{").getBytes(
                    StandardCharsets.US_ASCII));
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);

            assertThat(answer).startsWith("HTTP/1.1 408 ").containsIgnoringCase("\r\nConnection: close\r\n");
        }
    }

    @Test
    void rejectsInvalidJsonBodyWithErrorJson() throws Exception {
        HttpResponse<String> response = send(get("/api/people").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"\",\"age\":-1}")));
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains("\"status\":400").contains("\"path\":\"/api/people\"");
    }

    @Test
    void answersUnknownPathWithErrorJson() throws Exception {
        HttpResponse<String> response = send(get("/no/such/thing").header("Accept", "application/json"));
        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.body()).contains("\"status\":404").contains("\"error\":\"Not Found\"")
                .contains("\"path\":\"/no/such/thing\"");
    }

    @Test
    void answersUncaughtExceptionWithErrorJson() throws Exception {
        HttpResponse<String> response = send(get("/api/boom").header("Accept", "application/json"));
        assertThat(response.statusCode()).isEqualTo(500);
        assertThat(response.body()).contains("\"status\":500").contains("\"path\":\"/api/boom\"")
                .containsPattern("\"message\":\"[^\"]*boom\"");
    }

    @Test
    void readsFormPost() throws Exception {
        HttpResponse<String> response = send(get("/form")
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("name=Gr%C3%A9goire&city=S%C3%A8te")));
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("Grégoire from Sète");
    }

    @Test
    void acceptsMultipartUploadWithinLimit() throws Exception {
        HttpResponse<String> response = send(multipart(500));
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("data.bin:500");
    }

    @Test
    void rejectsMultipartUploadOverTheLimit() throws Exception {
        HttpResponse<String> response = send(multipart(4000).header("Accept", "application/json"));
        assertThat(response.statusCode()).isEqualTo(413);
        assertThat(response.body()).contains("\"status\":413");
    }

    private HttpRequest.Builder multipart(int size) {
        String boundary = "sprout-boundary-42";
        String body = "--" + boundary + "\r\n"
                + "Content-Disposition: form-data; name=\"file\"; filename=\"data.bin\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n"
                + "x".repeat(size) + "\r\n"
                + "--" + boundary + "--\r\n";
        return get("/upload").header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }

    @Test
    void completesDeferredResult() throws Exception {
        HttpResponse<String> response = send(get("/api/deferred"));
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("{\"message\":\"deferred\"}");
    }

    @Test
    void completesCallable() throws Exception {
        HttpResponse<String> response = send(get("/api/callable"));
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("called");
    }

    @Test
    void streamsServerSentEvents() throws Exception {
        HttpResponse<String> response = send(get("/api/sse").header("Accept", "text/event-stream"));
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("text/event-stream"));
        assertThat(response.body()).isEqualTo("event:tick\ndata:n1\n\nevent:tick\ndata:n2\n\nevent:tick\ndata:n3\n\n");
    }

    @Test
    void streamsResponseBody() throws Exception {
        HttpResponse<String> response = send(get("/api/stream"));
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("chunk0\nchunk1\nchunk2\n");
    }

    @Test
    void exposesSproutMetersThroughActuator() throws Exception {
        send(get("/api/greeting"));
        HttpResponse<String> requests = send(get("/actuator/metrics/sprout.requests.received"));
        assertThat(requests.statusCode()).isEqualTo(200);
        assertThat(requests.body()).contains("\"name\":\"sprout.requests.received\"");
        assertThat(send(get("/actuator/metrics/sprout.connections.current")).statusCode()).isEqualTo(200);
        assertThat(send(get("/actuator/metrics/sprout.threads.busy")).statusCode()).isEqualTo(200);
        assertThat(send(get("/actuator/metrics/sprout.exchanges.detached")).statusCode()).isEqualTo(200);
        assertThat(send(get("/actuator/metrics/sprout.connections.rejected")).statusCode()).isEqualTo(200);
        assertThat(send(get("/actuator/metrics/sprout.connections.shed")).statusCode()).isEqualTo(200);
        assertThat(send(get("/actuator/metrics/sprout.tasks.rescued")).statusCode()).isEqualTo(200);
        assertThat(send(get("/actuator/metrics/sprout.exchanges.refused")).statusCode()).isEqualTo(200);
        assertThat(send(get("/actuator/metrics/sprout.requests.shed")).statusCode()).isEqualTo(200);
        HttpResponse<String> timeouts = send(get("/actuator/metrics/sprout.timeouts?tag=kind:rate"));
        assertThat(timeouts.statusCode()).isEqualTo(200);
        assertThat(timeouts.body()).contains("\"name\":\"sprout.timeouts\"");
        assertThat(send(get("/actuator/metrics/sprout.timeouts")).body())
                .contains("\"tag\":\"kind\"", "\"head\"", "\"body\"", "\"rate\"", "\"write\"", "\"idle\"");
        // HTTP/2 is off here: its meters exist all the same, at 0.
        assertThat(send(get("/actuator/metrics/sprout.http2.streams")).body()).contains("\"value\":0.0");
        assertThat(send(get("/actuator/metrics/sprout.http2.resets")).body())
                .contains("\"value\":0.0", "\"tag\":\"direction\"", "\"received\"", "\"sent\"");
        assertThat(send(get("/actuator/metrics/sprout.http2.goaway")).body())
                .contains("\"value\":0.0", "\"tag\":\"reason\"", "\"NO_ERROR\"", "\"ENHANCE_YOUR_CALM\"");
        HttpResponse<String> observed = send(get("/actuator/metrics/http.server.requests"));
        assertThat(observed.statusCode()).isEqualTo(200);
        assertThat(observed.body()).contains("/api/greeting");
    }

    @Test
    void keepsSessionAcrossRequests() throws Exception {
        HttpResponse<String> first = send(get("/session/increment"));
        List<String> cookies = first.headers().allValues("Set-Cookie");
        assertThat(cookies).singleElement().satisfies(cookie -> assertThat(cookie).startsWith("JSESSIONID=")
                .contains("Path=/").contains("HttpOnly"));
        String sessionCookie = cookies.get(0).substring(0, cookies.get(0).indexOf(';'));
        HttpResponse<String> second = send(get("/session/increment").header("Cookie", sessionCookie));
        assertThat(first.body()).isEqualTo("1");
        assertThat(second.body()).isEqualTo("2");
        assertThat(second.headers().allValues("Set-Cookie")).isEmpty();
    }
}
