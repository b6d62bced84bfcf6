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
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * How the native adapter ends an exchange that does not end well, in every engine combination: a failure before
 * anything was sent is a {@code 500}, one after is an aborted connection, and a client that leaves mid-stream
 * cancels the application's publisher. The server's buffers all come back in every case (checked on close).
 */
@ParameterizedClass(name = "{0}/{1}")
@MethodSource("io.sprout.boot.reactive.ReactiveServer#combinations")
class ReactiveFailuresIT {

    @Parameter(0)
    ExecutionMode mode;

    @Parameter(1)
    ThreadType threads;

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
    private final CountDownLatch ticksCancelled = new CountDownLatch(1);
    /** The engine logs through System.Logger, here backed by java.util.logging: its loggers share this parent. */
    private final Logger engineLog = Logger.getLogger("io.sprout.engine");
    private final List<LogRecord> engineErrors = new CopyOnWriteArrayList<>();
    private final Handler errorRecorder = new Handler() {
        @Override
        public void publish(LogRecord record) {
            if (record.getLevel().intValue() >= Level.SEVERE.intValue()) {
                engineErrors.add(record);
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };
    private ReactiveServer server;

    @BeforeEach
    void start() {
        engineLog.addHandler(errorRecorder);
        server = ReactiveServer.start(mode, threads, this::handle);
    }

    /** However the exchange failed, no engine task failed with it (such as Spring's processors refusing a signal). */
    @AfterEach
    void stop() {
        client.close();
        server.close();
        engineLog.removeHandler(errorRecorder);
        assertThat(engineErrors).extracting(LogRecord::getMessage).isEmpty();
    }

    private Mono<Void> handle(ServerHttpRequest request, ServerHttpResponse response) {
        return switch (request.getPath().value()) {
            case "/failing" -> Mono.error(new IllegalStateException("failed before writing"));
            case "/failing-body" -> response.writeWith(Mono.error(new IllegalStateException("no body after all")));
            case "/throwing" -> throw new IllegalStateException("thrown instead of returned");
            // The source fails while the write of its first publisher still waits for the exchange's worker.
            case "/failing-source" -> response.writeAndFlushWith(Flux.concat(
                    Mono.just(Mono.fromSupplier(() -> tick(response, 0))),
                    Mono.error(new IllegalStateException("the source failed"))));
            case "/failing-midway" -> response.writeWith(Flux.range(0, 10).map(i -> {
                if (i == 4) {
                    throw new IllegalStateException("failed after 4 x 64 KiB");
                }
                return response.bufferFactory().wrap(new byte[64 * 1024]);
            }));
            // The timer ticks whatever the demand: the buffer takes the moments when the next one is asked for late
            // (the demand comes back from the exchange's worker), where a bare interval would fail with an overflow.
            case "/ticks" -> response.writeAndFlushWith(Flux.interval(Duration.ofMillis(20)).onBackpressureBuffer(256)
                    .map(i -> Mono.just(tick(response, i)))
                    .doOnCancel(ticksCancelled::countDown));
            default -> response.writeWith(Mono.fromSupplier(() -> tick(response, 0)));
        };
    }

    private static DataBuffer tick(ServerHttpResponse response, long i) {
        return response.bufferFactory().wrap(("tick " + i + "\n").getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void answers500WhenTheHandlerFailsBeforeWriting() throws Exception {
        for (String path : new String[] {"/failing", "/failing-body", "/throwing", "/failing-source"}) {
            var response = client.send(request(path), BodyHandlers.ofString());

            assertThat(response.statusCode()).as(path).isEqualTo(500);
            assertThat(response.body()).as(path).isEmpty();
        }
        assertThat(client.send(request("/after"), BodyHandlers.ofString()).body()).isEqualTo("tick 0\n");
    }

    @Test
    void abortsTheConnectionWhenTheHandlerFailsAfterTheResponseWasSent() throws Exception {
        assertThatThrownBy(() -> client.send(request("/failing-midway"), BodyHandlers.ofByteArray()))
                .isInstanceOf(IOException.class);

        assertThat(client.send(request("/after"), BodyHandlers.ofString()).body()).isEqualTo("tick 0\n");
    }

    @Test
    void cancelsTheStreamWithinASecondOfTheClientLeaving() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write("GET /ticks HTTP/1.1\r\nHost: localhost\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            readUntil(socket.getInputStream(), "tick 2\n");
        }

        assertThat(ticksCancelled.await(1, TimeUnit.SECONDS)).as("the ticks were cancelled").isTrue();
        assertThat(client.send(request("/after"), BodyHandlers.ofString()).body()).isEqualTo("tick 0\n");
    }

    private HttpRequest request(String path) {
        return HttpRequest.newBuilder(server.uri(path)).timeout(Duration.ofSeconds(30)).build();
    }

    private static void readUntil(InputStream in, String expected) throws IOException {
        StringBuilder seen = new StringBuilder();
        while (seen.indexOf(expected) < 0) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("The stream ended before \"" + expected + "\": " + seen);
            }
            seen.append((char) b);
        }
    }
}
