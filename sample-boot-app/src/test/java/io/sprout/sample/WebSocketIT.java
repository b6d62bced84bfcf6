package io.sprout.sample;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code /ws/echo}, {@code /ws/broadcast} and their HTTP endpoints over real sockets with the JDK's WebSocket client,
 * on whichever server the Maven profile put on the class path.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class WebSocketIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static final Duration SETTLE = Duration.ofSeconds(10);

    private static HttpClient http;

    @LocalServerPort
    private int port;

    @BeforeAll
    static void createClient() {
        http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    }

    @AfterAll
    static void closeClient() {
        http.close();
    }

    @Test
    void echoSendsEveryTextMessageBackInOrder() throws Exception {
        try (WebSocketClient client = WebSocketClient.open(http, this.port, "/ws/echo")) {
            List<String> sent = List.of("ping", "", "é ✓ 𝄞", "x".repeat(4000));
            sent.forEach(client::sendText);
            for (String message : sent) {
                assertThat(client.nextText()).isEqualTo(message);
            }
            client.assertNothingMore();
        }
    }

    @Test
    void echoSendsEveryBinaryMessageBack() throws Exception {
        Random random = new Random(9);
        try (WebSocketClient client = WebSocketClient.open(http, this.port, "/ws/echo")) {
            List<byte[]> sent = new ArrayList<>();
            for (int size : new int[] { 1, 125, 126, 4000 }) {
                byte[] message = new byte[size];
                random.nextBytes(message);
                sent.add(message);
                client.sendBinary(message);
            }
            client.sendText("and text");
            for (byte[] message : sent) {
                assertThat(client.nextBinary()).isEqualTo(message);
            }
            assertThat(client.nextText()).isEqualTo("and text");
        }
    }

    @Test
    void broadcastReachesEverySubscriberInOrder() throws Exception {
        List<WebSocketClient> subscribers = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                subscribers.add(WebSocketClient.open(http, this.port, "/ws/broadcast"));
            }
            await().atMost(SETTLE).until(() -> sessions().get("subscribers").asInt() == 3);
            HttpResponse<String> response = post("/benchmark/broadcast?messages=4&size=100");
            assertThat(response.statusCode()).isEqualTo(200);
            JsonNode result = JSON.readTree(response.body());
            assertThat(result.get("sessions").asInt()).isEqualTo(3);
            assertThat(result.get("messages").asInt()).isEqualTo(4);
            assertThat(result.get("size").asInt()).isEqualTo(100);
            assertThat(result.get("sent").asLong()).isEqualTo(12);
            assertThat(result.get("failed").asLong()).isZero();
            assertThat(result.get("millis").asLong()).isNotNegative();
            for (WebSocketClient subscriber : subscribers) {
                String stamp = null;
                for (int sequence = 0; sequence < 4; sequence++) {
                    String[] parts = subscriber.nextText().split(" ");
                    assertThat(parts).hasSize(4);
                    assertThat(parts[0]).isEqualTo("broadcast");
                    assertThat(parts[1]).isEqualTo(Integer.toString(sequence));
                    assertThat(parts[3]).matches("x+");
                    assertThat(String.join(" ", parts)).hasSize(100);
                    if (stamp != null) {
                        assertThat(parts[2]).as("one start time per broadcast").isEqualTo(stamp);
                    }
                    stamp = parts[2];
                }
                subscriber.assertNothingMore();
            }
        }
        finally {
            subscribers.forEach(WebSocketClient::close);
        }
    }

    @Test
    void echoSessionsDoNotReceiveBroadcasts() throws Exception {
        try (WebSocketClient echo = WebSocketClient.open(http, this.port, "/ws/echo")) {
            echo.sendText("open");
            assertThat(echo.nextText()).isEqualTo("open");
            assertThat(post("/benchmark/broadcast?messages=2&size=64").statusCode()).isEqualTo(200);
            echo.assertNothingMore();
        }
    }

    @Test
    void sessionCountFollowsOpeningAndClosing() throws Exception {
        // Sessions of other tests close asynchronously: start from none.
        await().atMost(SETTLE).until(() -> sessions().get("open").asInt() == 0);
        WebSocketClient first = WebSocketClient.open(http, this.port, "/ws/echo");
        WebSocketClient second = WebSocketClient.open(http, this.port, "/ws/echo");
        WebSocketClient subscriber = WebSocketClient.open(http, this.port, "/ws/broadcast");
        await().atMost(SETTLE).until(() -> sessions().get("open").asInt() == 3);
        assertThat(sessions().get("subscribers").asInt()).isEqualTo(1);
        first.close();
        subscriber.close();
        await().atMost(SETTLE).until(() -> sessions().get("open").asInt() == 1);
        assertThat(sessions().get("subscribers").asInt()).isZero();
        second.close();
        await().atMost(SETTLE).until(() -> sessions().get("open").asInt() == 0);
    }

    @Test
    void broadcastWithoutSubscribersSendsNothing() throws Exception {
        HttpResponse<String> response = post("/benchmark/broadcast?messages=3&size=48");
        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode result = JSON.readTree(response.body());
        assertThat(result.get("messages").asInt()).isEqualTo(3);
        assertThat(result.get("failed").asLong()).isZero();
        assertThat(result.get("sent").asLong()).isEqualTo(3L * result.get("sessions").asInt());
    }

    @ParameterizedTest
    @ValueSource(strings = { "/benchmark/broadcast?messages=0", "/benchmark/broadcast?messages=1001",
            "/benchmark/broadcast?messages=abc", "/benchmark/broadcast?size=47", "/benchmark/broadcast?size=8193" })
    void badBroadcastParametersGetBadRequest(String path) throws Exception {
        HttpResponse<String> response = post(path);
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(response.body()).get("path").asString()).isEqualTo("/benchmark/broadcast");
    }

    private JsonNode sessions() throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(uri("/benchmark/ws/sessions")).GET().build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    private HttpResponse<String> post(String path) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(uri(path)).POST(HttpRequest.BodyPublishers.noBody()).build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + this.port + path);
    }

}
