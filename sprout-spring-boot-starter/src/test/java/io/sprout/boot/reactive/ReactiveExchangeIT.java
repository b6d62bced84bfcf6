package io.sprout.boot.reactive;

import io.sprout.engine.ExecutionMode;
import io.sprout.engine.Headers;
import io.sprout.engine.HttpResponse;
import io.sprout.engine.RequestHandler;
import io.sprout.engine.ThreadType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseCookie;
import org.springframework.http.ZeroCopyHttpOutputMessage;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring's {@link HttpHandler} contract on the native adapter, over real sockets in every engine combination: the
 * scenarios of Spring's own adapter integration tests (random, async, cookies, write-only, zero-copy, HEAD), plus
 * the live headers and the bodiless answer. The echo is {@link ReactiveStreamingIT}'s: it needs a client that reads
 * the response while it sends the request, which the JDK's client does not do.
 */
@ParameterizedClass(name = "{0}/{1}")
@MethodSource("io.sprout.boot.reactive.ReactiveServer#combinations")
class ReactiveExchangeIT {

    @Parameter(0)
    ExecutionMode mode;

    @Parameter(1)
    ThreadType threads;

    @TempDir
    Path files;

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
    private ReactiveServer server;

    @BeforeEach
    void start() {
        RequestHandler adapter = new SproutHttpHandlerAdapter(this::handle);
        server = ReactiveServer.start(mode, threads, (request, response) -> {
            if (request.headers().contains("X-Test-Gzip")) {
                // As the engine's compression does: the body is encoded from the commit on.
                response.beforeCommit((complete, buffered) -> response.encodeBody(ReactiveExchangeIT::gzip));
            }
            adapter.handle(request, response);
        });
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    private Mono<Void> handle(ServerHttpRequest request, ServerHttpResponse response) {
        return switch (request.getPath().value()) {
            case "/random" -> answerRandomBytes(request, response);
            case "/id" -> response.writeWith(text(response, request.getId()));
            case "/late" -> Mono.delay(Duration.ofMillis(50)).then(response.writeWith(text(response, "late")));
            case "/cookies" -> answerCookies(request, response);
            case "/headers" -> answerHeaderViews(request, response);
            case "/accepted" -> {
                response.setStatusCode(HttpStatus.ACCEPTED);
                response.getHeaders().set("X-Answered", "without a body");
                yield Mono.empty();
            }
            case "/greeting" -> {
                response.getHeaders().setContentType(MediaType.TEXT_PLAIN);
                response.getHeaders().set("X-Greeting", "hi");
                yield response.writeWith(text(response, "hello"));
            }
            case "/write-only" -> response.writeWith(Flux.range(0, 64).map(i -> response.bufferFactory()
                    .wrap(new byte[1024])));
            case "/file" -> ((ZeroCopyHttpOutputMessage) response).writeWith(files.resolve("served.bin"),
                    Long.parseLong(request.getQueryParams().getFirst("from")),
                    Long.parseLong(request.getQueryParams().getFirst("count")));
            default -> {
                response.setStatusCode(HttpStatus.NOT_FOUND);
                yield response.setComplete();
            }
        };
    }

    /** Reads the body, then answers as many random bytes as asked for, in chunks of random sizes. */
    private static Mono<Void> answerRandomBytes(ServerHttpRequest request, ServerHttpResponse response) {
        int size = Integer.parseInt(request.getQueryParams().getFirst("size"));
        byte[] bytes = new byte[size];
        new Random(size).nextBytes(bytes);
        return request.getBody().map(buffer -> {
            int count = buffer.readableByteCount();
            DataBufferUtils.release(buffer);
            return (long) count;
        }).reduce(0L, Long::sum).flatMap(received -> {
            response.getHeaders().set("X-Received", Long.toString(received));
            response.getHeaders().set("X-Sha256", sha256(bytes));
            return response.writeWith(Flux.fromIterable(randomSlices(bytes, new Random(received)))
                    .map(slice -> response.bufferFactory().wrap(slice)));
        });
    }

    private static Mono<Void> answerCookies(ServerHttpRequest request, ServerHttpResponse response) {
        response.addCookie(ResponseCookie.from("session", "s1").path("/").httpOnly(true).build());
        response.addCookie(ResponseCookie.from("theme", "dark").maxAge(60).build());
        List<String> seen = request.getCookies().values().stream().flatMap(List::stream)
                .map(cookie -> cookie.getName() + "=" + cookie.getValue()).toList();
        return response.writeWith(text(response, String.join(",", seen)));
    }

    /** What the handler reads back through Spring's views and the engine's own headers. */
    private static Mono<Void> answerHeaderViews(ServerHttpRequest request, ServerHttpResponse response) {
        HttpHeaders headers = response.getHeaders();
        headers.add("X-Multi", "one");
        headers.add("x-multi", "two");
        headers.add("X-MULTI", "three");
        Headers engine = ServerHttpResponseDecorator.<HttpResponse>getNativeResponse(response).headers();
        engine.set("X-From-Engine", "yes");
        String seen = "spring=" + headers.get("x-Multi") + " engine=" + engine.all("X-Multi")
                + " view=" + headers.getFirst("x-from-engine") + " request=" + request.getHeaders().get("x-req");
        return response.writeWith(text(response, seen));
    }

    private static Mono<DataBuffer> text(ServerHttpResponse response, String text) {
        return Mono.fromSupplier(() -> response.bufferFactory().wrap(text.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void answersARandomBodyOfTheAskedSizeAfterReadingTheRequest() throws Exception {
        byte[] request = new byte[3 * 4096];
        new Random(7).nextBytes(request);

        var response = client.send(post("/random?size=1234567", BodyPublishers.ofByteArray(request)),
                BodyHandlers.ofByteArray());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("X-Received")).hasValue("12288");
        assertThat(response.body()).hasSize(1_234_567);
        assertThat(sha256(response.body())).isEqualTo(response.headers().firstValue("X-Sha256").orElseThrow());
    }

    /**
     * The id counts the server's requests. Spring's default, the identity hash, repeats among thousands of live
     * requests, and applications key WebSocket sessions by it.
     */
    @Test
    void givesEveryRequestTheServersCountOfRequestsAsItsId() throws Exception {
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            ids.add(Long.parseLong(client.send(get("/id").build(), BodyHandlers.ofString()).body(), 16));
        }

        assertThat(ids).isSorted().doesNotHaveDuplicates();
    }

    @Test
    void readsAnEmptyBodyAndAnswersAnEmptyOne() throws Exception {
        var response = client.send(post("/random?size=0", BodyPublishers.noBody()), BodyHandlers.ofByteArray());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("X-Received")).hasValue("0");
        assertThat(response.headers().firstValue("Content-Length")).hasValue("0");
        assertThat(response.body()).isEmpty();
    }

    @Test
    void writesThroughTheBodyEncodingTheEngineInstallsAtCommit() throws Exception {
        var response = client.send(get("/random?size=300000").header("X-Test-Gzip", "yes")
                .POST(BodyPublishers.noBody()).build(), BodyHandlers.ofByteArray());

        assertThat(response.statusCode()).isEqualTo(200);
        byte[] body;
        try (var gunzip = new GZIPInputStream(new ByteArrayInputStream(response.body()))) {
            body = gunzip.readAllBytes();
        }
        assertThat(body).hasSize(300_000);
        assertThat(sha256(body)).isEqualTo(response.headers().firstValue("X-Sha256").orElseThrow());
    }

    @Test
    void writesTheBodyFromATimerThreadAfterTheWorkerHasReturned() throws Exception {
        var response = client.send(get("/late").build(), BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("late");
    }

    @Test
    void seesRequestCookiesAndSendsResponseCookies() throws Exception {
        var response = client.send(get("/cookies").header("Cookie", "a=1; b=two").build(), BodyHandlers.ofString());

        assertThat(response.body()).isEqualTo("a=1,b=two");
        assertThat(response.headers().allValues("Set-Cookie")).hasSize(2)
                .anySatisfy(cookie -> assertThat(cookie).startsWith("session=s1").contains("Path=/", "HttpOnly"))
                .anySatisfy(cookie -> assertThat(cookie).startsWith("theme=dark").contains("Max-Age=60"));
    }

    @Test
    void sharesLiveCaseInsensitiveHeadersWithTheEngineKeepingTheOrderOfValues() throws Exception {
        var response = client.send(get("/headers").header("X-Req", "a").header("x-req", "b").build(),
                BodyHandlers.ofString());

        assertThat(response.body())
                .isEqualTo("spring=[one, two, three] engine=[one, two, three] view=yes request=[a, b]");
        assertThat(response.headers().allValues("X-Multi")).containsExactly("one", "two", "three");
        assertThat(response.headers().firstValue("X-From-Engine")).hasValue("yes");
    }

    @Test
    void commitsTheStatusAndHeadersOfAHandlerThatWritesNoBody() throws Exception {
        var response = client.send(get("/accepted").build(), BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(202);
        assertThat(response.headers().firstValue("X-Answered")).hasValue("without a body");
        assertThat(response.headers().firstValue("Content-Length")).hasValue("0");
        assertThat(response.body()).isEmpty();
    }

    @Test
    void answersHeadWithTheHeadersOfGetAndNoBody() throws Exception {
        var get = client.send(get("/greeting").build(), BodyHandlers.ofString());
        var head = client.send(get("/greeting").method("HEAD", BodyPublishers.noBody()).build(),
                BodyHandlers.ofString());

        assertThat(get.body()).isEqualTo("hello");
        assertThat(head.statusCode()).isEqualTo(200);
        assertThat(head.body()).isEmpty();
        for (String name : List.of("Content-Type", "Content-Length", "X-Greeting")) {
            assertThat(head.headers().allValues(name)).as(name).isNotEmpty()
                    .isEqualTo(get.headers().allValues(name));
        }
    }

    @Test
    void writesWithoutReadingTheRequestBodyOnAConnectionThatCarriesTheNextRequest() throws Exception {
        for (int i = 0; i < 3; i++) {
            var response = client.send(post("/write-only", BodyPublishers.ofByteArray(new byte[20_000])),
                    BodyHandlers.ofByteArray());

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).hasSize(64 * 1024);
        }
        // The engine drained each unread body, so the client's pooled connection served all three.
        assertThat(server.stats().connectionsAccepted()).isEqualTo(1);
    }

    @Test
    void sendsARegionOfAFile() throws Exception {
        byte[] content = new byte[300_000];
        new Random(11).nextBytes(content);
        Files.write(files.resolve("served.bin"), content);

        var response = client.send(get("/file?from=1000&count=200000").build(), BodyHandlers.ofByteArray());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Length")).hasValue("200000");
        assertThat(response.body()).isEqualTo(Arrays.copyOfRange(content, 1000, 201_000));
    }

    @Test
    void answers404ThroughSetComplete() throws Exception {
        assertThat(client.send(get("/nowhere").build(), BodyHandlers.discarding()).statusCode()).isEqualTo(404);
    }

    private HttpRequest.Builder get(String path) {
        return HttpRequest.newBuilder(server.uri(path)).timeout(Duration.ofSeconds(30));
    }

    private HttpRequest post(String path, HttpRequest.BodyPublisher body) {
        return get(path).POST(body).build();
    }

    private static OutputStream gzip(OutputStream out) {
        try {
            return new GZIPOutputStream(out, true);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code bytes} cut into consecutive slices of 1 byte to 64 KiB. */
    static List<byte[]> randomSlices(byte[] bytes, Random random) {
        List<byte[]> slices = new ArrayList<>();
        for (int from = 0; from < bytes.length; ) {
            int to = Math.min(bytes.length, from + 1 + random.nextInt(64 * 1024));
            slices.add(Arrays.copyOfRange(bytes, from, to));
            from = to;
        }
        return slices;
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
