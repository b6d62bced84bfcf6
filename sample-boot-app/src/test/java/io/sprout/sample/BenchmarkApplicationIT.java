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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

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

/**
 * Every benchmark endpoint over real sockets, on whichever server the Maven profile put on the class path. The
 * client is the JDK's, so the test is the same for Spring MVC and WebFlux builds.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class BenchmarkApplicationIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static HttpClient client;

    @LocalServerPort
    private int port;

    @BeforeAll
    static void createClient() {
        client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    }

    @AfterAll
    static void closeClient() {
        client.close();
    }

    @Test
    void helloReturnsGreeting() throws Exception {
        HttpResponse<String> response = get("/benchmark/hello");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("Hello, World!");
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                (type) -> assertThat(type).startsWith("text/plain"));
    }

    @Test
    void jsonReturnsRecordNamingTheServer() throws Exception {
        HttpResponse<String> response = get("/benchmark/json");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                (type) -> assertThat(type).startsWith("application/json"));
        JsonNode body = JSON.readTree(response.body());
        assertThat(body.get("status").asString()).isEqualTo("success");
        assertThat(body.get("timestamp").asLong()).isPositive();
        assertThat(body.get("data").get("message").asString()).isEqualTo("Hello, JSON!");
        assertThat(body.get("data").get("version").asString()).isEqualTo("1.0");
        String expectedServer = System.getProperty("sample.server.name");
        if (expectedServer != null) {
            assertThat(body.get("data").get("server").asString()).isEqualTo(expectedServer);
        }
    }

    @Test
    void cpuComputesFibonacci() throws Exception {
        assertThat(get("/benchmark/cpu?n=35").body()).isEqualTo("Fibonacci(35) = 9227465");
        assertThat(get("/benchmark/cpu").body()).isEqualTo("Fibonacci(35) = 9227465");
        assertThat(get("/benchmark/cpu?n=0").body()).isEqualTo("Fibonacci(0) = 0");
        assertThat(get("/benchmark/cpu?n=92").body()).isEqualTo("Fibonacci(92) = 7540113804746346429");
    }

    @Test
    void cpuHeavyCountsPrimes() throws Exception {
        assertThat(get("/benchmark/cpu-heavy?limit=10000").body()).isEqualTo("Primes up to 10000: 1229");
        assertThat(get("/benchmark/cpu-heavy?limit=2").body()).isEqualTo("Primes up to 2: 1");
    }

    @Test
    void latencySleepsForTheRequestedTime() throws Exception {
        long start = System.nanoTime();
        HttpResponse<String> response = get("/benchmark/latency?ms=50");
        long elapsedMillis = Duration.ofNanos(System.nanoTime() - start).toMillis();
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("Slept 50 ms");
        assertThat(elapsedMillis).isGreaterThanOrEqualTo(50);
    }

    @Test
    void latencyAsyncAnswersAfterTheRequestedTimeLikeLatency() throws Exception {
        long start = System.nanoTime();
        HttpResponse<String> response = get("/benchmark/latency-async?ms=50");
        long elapsedMillis = Duration.ofNanos(System.nanoTime() - start).toMillis();
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("Slept 50 ms");
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                (type) -> assertThat(type).startsWith("text/plain"));
        assertThat(elapsedMillis).isGreaterThanOrEqualTo(50);
        assertThat(get("/benchmark/latency-async?ms=0").body()).isEqualTo("Slept 0 ms");
    }

    @Test
    void latencyAsyncAnswersEachOfManyWaitingRequests() throws Exception {
        // More waiting requests than the timer has threads: each is a queued task, not a blocked thread.
        List<CompletableFuture<HttpResponse<String>>> responses = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            HttpRequest request = HttpRequest.newBuilder(uri("/benchmark/latency-async?ms=" + (200 - i)))
                .GET()
                .build();
            responses.add(client.sendAsync(request, HttpResponse.BodyHandlers.ofString()));
        }
        for (int i = 0; i < responses.size(); i++) {
            HttpResponse<String> response = responses.get(i).get(30, TimeUnit.SECONDS);
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).isEqualTo("Slept " + (200 - i) + " ms");
        }
    }

    @Test
    void mixedComputesAndSleeps() throws Exception {
        HttpResponse<String> response = get("/benchmark/mixed");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("Fibonacci(20) = 6765, slept 50 ms");
    }

    @Test
    void healthSaysOk() throws Exception {
        HttpResponse<String> response = get("/benchmark/health");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("OK");
    }

    @Test
    void dbReturnsConsecutiveItems() throws Exception {
        HttpResponse<String> response = get("/benchmark/db?count=5");
        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode items = JSON.readTree(response.body());
        assertThat(items.size()).isEqualTo(5);
        int firstId = items.get(0).get("id").asInt();
        for (int i = 0; i < 5; i++) {
            JsonNode item = items.get(i);
            assertThat(item.get("id").asInt()).isEqualTo(firstId + i);
            assertThat(item.get("name").asString()).isEqualTo("item-" + (firstId + i));
            assertThat(item.get("price").decimalValue()).isEqualByComparingTo(
                    java.math.BigDecimal.valueOf(firstId + i).divide(java.math.BigDecimal.valueOf(4)));
        }
        assertThat(JSON.readTree(get("/benchmark/db").body()).size()).isEqualTo(10);
    }

    @ParameterizedTest
    @ValueSource(strings = { "/benchmark/bytes", "/benchmark/stream" })
    void bytesAndStreamReturnTheRequestedNumberOfBytes(String path) throws Exception {
        int size = 1024 * 1024 + 7;
        HttpRequest request = HttpRequest.newBuilder(uri(path + "?size=" + size)).GET().build();
        HttpResponse<byte[]> response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/octet-stream");
        assertThat(response.headers().firstValue("Content-Length")).hasValue(Integer.toString(size));
        byte[] expected = new byte[size];
        for (int i = 0; i < size; i++) {
            expected[i] = (byte) ('a' + i % 26);
        }
        assertThat(response.body()).isEqualTo(expected);
    }

    @Test
    void streamOfNothingIsEmpty() throws Exception {
        HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(uri("/benchmark/stream?size=0")).GET().build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEmpty();
    }

    @Test
    void echoStreamsTheBodyBack() throws Exception {
        byte[] body = new byte[1024 * 1024 + 17];
        new Random(42).nextBytes(body);
        HttpRequest request = HttpRequest.newBuilder(uri("/benchmark/echo"))
            .header("Content-Type", "application/octet-stream")
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build();
        HttpResponse<byte[]> response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/octet-stream");
        assertThat(response.body()).isEqualTo(body);
    }

    @Test
    void echoKeepsTheContentTypeOfText() throws Exception {
        HttpRequest request = HttpRequest.newBuilder(uri("/benchmark/echo"))
            .header("Content-Type", "text/plain")
            .POST(HttpRequest.BodyPublishers.ofString("ping"))
            .build();
        HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("ping");
    }

    @ParameterizedTest
    @ValueSource(strings = { "/benchmark/cpu?n=abc", "/benchmark/cpu?n=-1", "/benchmark/cpu?n=93",
            "/benchmark/cpu?n=99999999999", "/benchmark/cpu-heavy?limit=abc", "/benchmark/cpu-heavy?limit=1",
            "/benchmark/cpu-heavy?limit=2000000000", "/benchmark/latency?ms=-5", "/benchmark/latency?ms=abc",
            "/benchmark/latency?ms=3600000", "/benchmark/latency-async?ms=-5", "/benchmark/latency-async?ms=abc",
            "/benchmark/latency-async?ms=3600000", "/benchmark/db?count=0", "/benchmark/db?count=1000000", "/benchmark/bytes?size=-1",
            "/benchmark/bytes?size=16777217", "/benchmark/stream?size=-1", "/benchmark/stream?size=16777217" })
    void badParametersGetBadRequestWithBootsErrorBody(String path) throws Exception {
        HttpResponse<String> response = get(path);
        assertThat(response.statusCode()).isEqualTo(400);
        JsonNode body = JSON.readTree(response.body());
        assertThat(body.get("status").asInt()).isEqualTo(400);
        assertThat(body.get("error").asString()).isEqualTo("Bad Request");
        assertThat(body.get("path").asString()).isEqualTo(path.substring(0, path.indexOf('?')));
    }

    @Test
    void actuatorExposesHealthAndMetrics() throws Exception {
        HttpResponse<String> health = get("/actuator/health");
        assertThat(health.statusCode()).isEqualTo(200);
        JsonNode healthBody = JSON.readTree(health.body());
        assertThat(healthBody.get("status").asString()).isEqualTo("UP");
        assertThat(healthBody.get("components").has("db")).isTrue();
        get("/benchmark/hello");
        HttpResponse<String> metrics = get("/actuator/metrics");
        assertThat(metrics.statusCode()).isEqualTo(200);
        assertThat(metrics.body()).contains("http.server.requests", "hikaricp.connections", "jvm.threads.live");
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(uri(path)).header("Accept", "*/*").GET().build();
        return client.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + this.port + path);
    }

}
