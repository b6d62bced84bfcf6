package io.sprout.boot.reactive;

import io.sprout.engine.ExecutionMode;
import io.sprout.engine.ThreadType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Every buffer is released exactly once, however the exchange ends: the adapter's request body buffers and the
 * application's response buffers are Netty's reference-counted ones here, so a buffer written and not released,
 * discarded on a cancel or an error and not released, or released twice (Netty throws) shows.
 */
@ParameterizedClass(name = "{0}/{1}")
@MethodSource("io.sprout.boot.reactive.ReactiveServer#combinations")
class ReactiveBufferReleaseIT {

    @Parameter(0)
    ExecutionMode mode;

    @Parameter(1)
    ThreadType threads;

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
    private final TrackingBufferFactory buffers = new TrackingBufferFactory();
    private ReactiveServer server;

    @BeforeEach
    void start() {
        server = ReactiveServer.start(mode, threads, this::handle, buffers);
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    private Mono<Void> handle(ServerHttpRequest request, ServerHttpResponse response) {
        return switch (request.getPath().value()) {
            case "/echo" -> response.writeWith(request.getBody());
            case "/chunks" -> response.writeWith(Flux.range(0, 50).map(i -> chunk(response, 10_000)));
            case "/failing-midway" -> response.writeWith(Flux.range(0, 20).map(i -> {
                if (i == 10) {
                    throw new IllegalStateException("failed after 10 x 64 KiB");
                }
                return chunk(response, 64 * 1024);
            }));
            case "/endless" -> response.writeAndFlushWith(Flux.range(0, Integer.MAX_VALUE)
                    .delayElements(Duration.ofMillis(5)).map(i -> Mono.just(chunk(response, 1000))));
            default -> {
                response.setStatusCode(HttpStatus.NOT_FOUND);
                yield response.setComplete();
            }
        };
    }

    private static DataBuffer chunk(ServerHttpResponse response, int size) {
        return response.bufferFactory().allocateBuffer(size).write(new byte[size]);
    }

    @Test
    void releasesTheRequestBuffersItReadOnceTheyAreWrittenBack() throws Exception {
        byte[] body = new byte[1024 * 1024];
        new Random(31).nextBytes(body);

        var response = client.send(request("/echo").POST(BodyPublishers.ofByteArray(body)).build(),
                BodyHandlers.ofByteArray());

        assertThat(response.body()).isEqualTo(body);
        assertAllReleased();
    }

    @Test
    void releasesEveryBufferWrittenAndEveryBufferAHeadRequestDiscards() throws Exception {
        assertThat(client.send(request("/chunks").build(), BodyHandlers.ofByteArray()).body()).hasSize(500_000);
        var head = client.send(request("/chunks").method("HEAD", BodyPublishers.noBody()).build(),
                BodyHandlers.ofByteArray());

        assertThat(head.body()).isEmpty();
        assertAllReleased();
    }

    @Test
    void releasesTheBuffersOfAResponseThatFailsMidway() {
        assertThatThrownBy(() -> client.send(request("/failing-midway").build(), BodyHandlers.ofByteArray()))
                .isInstanceOf(IOException.class);

        assertAllReleased();
    }

    @Test
    void releasesTheBuffersOfAStreamTheClientLeaves() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write("GET /endless HTTP/1.1\r\nHost: localhost\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            InputStream in = socket.getInputStream();
            in.readNBytes(5000);
        }

        assertAllReleased();
    }

    private void assertAllReleased() {
        assertThat(buffers.made()).as("buffers made").isPositive();
        await("every buffer released").atMost(Duration.ofSeconds(5)).until(() -> buffers.unreleased() == 0);
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(server.uri(path)).timeout(Duration.ofSeconds(30));
    }
}
