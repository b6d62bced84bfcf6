package io.sprout.boot.reactive;

import io.sprout.engine.ExecutionMode;
import io.sprout.engine.ThreadType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import org.reactivestreams.Subscription;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.CRC32;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A gibibyte each way with a party that stops reading: the adapter reads the request body only as the application
 * asks, and writes the response only as the client takes it, so while either side stands still the server holds a
 * few buffers and nothing piles up in the heap. Every byte still arrives, in order (checked with CRC-32).
 */
@ParameterizedClass(name = "{0}/{1}")
@MethodSource("io.sprout.boot.reactive.ReactiveServer#combinations")
class ReactiveBackpressureIT {

    private static final long SIZE = 1L << 30;
    /** Where the slow party stops reading until the test has watched the server for a while. */
    private static final long PAUSE_AT = 8 << 20;
    /** The longest stand-still watched: long enough for an eager server to pile up far more than the bounds. */
    private static final Duration STAND_STILL = Duration.ofMillis(500);
    /** Pooled buffers one transfer may hold: a connection's read and write buffers, an unsent remainder (seen: 1). */
    private static final long LEASED_BOUND = 4;
    /** Bytes between the two ends at a stand-still: both sockets' kernel buffers and the client's (seen: 1-4 MiB). */
    private static final long IN_FLIGHT_BOUND = 16 << 20;
    private static final int CHUNK = 64 * 1024;

    @Parameter(0)
    ExecutionMode mode;

    @Parameter(1)
    ThreadType threads;

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
    private final CountingBufferFactory bufferFactory = new CountingBufferFactory();
    private final AtomicReference<PausingConsumer> upload = new AtomicReference<>();
    private final Pattern download = new Pattern();
    private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
    private final AtomicLong mostLeased = new AtomicLong();
    private ReactiveServer server;

    @BeforeEach
    void start() {
        server = ReactiveServer.start(mode, threads, this::handle, bufferFactory);
        sampler.scheduleAtFixedRate(() -> mostLeased.accumulateAndGet(server.stats().buffersLeased(), Math::max),
                0, 2, TimeUnit.MILLISECONDS);
    }

    @AfterEach
    void stop() {
        sampler.shutdownNow();
        client.close();
        server.close();
    }

    private Mono<Void> handle(ServerHttpRequest request, ServerHttpResponse response) {
        return switch (request.getPath().value()) {
            case "/upload" -> {
                PausingConsumer consumer = new PausingConsumer();
                upload.set(consumer);
                request.getBody().subscribe(consumer);
                yield Mono.fromFuture(consumer.done).map(received -> received + " " + consumer.crc.getValue())
                        .flatMap(summary -> response.writeWith(Mono.just(response.bufferFactory()
                                .wrap(summary.getBytes(StandardCharsets.US_ASCII)))));
            }
            case "/download" -> {
                response.getHeaders().setContentLength(SIZE);
                yield response.writeWith(Flux.generate(() -> 0L, (offset, sink) -> {
                    int length = (int) Math.min(CHUNK, SIZE - offset);
                    if (length == 0) {
                        sink.complete();
                    } else {
                        sink.next(response.bufferFactory().wrap(download.next(length)));
                    }
                    return offset + length;
                }));
            }
            default -> {
                response.setStatusCode(HttpStatus.NOT_FOUND);
                yield response.setComplete();
            }
        };
    }

    @Test
    void readsAnUploadOnlyAsFastAsTheApplicationConsumesIt() throws Exception {
        Pattern sent = new Pattern();
        CompletableFuture<HttpResponse<String>> answer = client.sendAsync(HttpRequest.newBuilder(server.uri("/upload"))
                .POST(BodyPublishers.fromPublisher(BodyPublishers.ofInputStream(() -> sent.asStream(SIZE)), SIZE))
                .timeout(Duration.ofMinutes(2)).build(), BodyHandlers.ofString());

        await().atMost(Duration.ofSeconds(30)).until(() -> upload.get() != null && upload.get().paused.isDone());
        PausingConsumer consumer = upload.get();
        await("the server at a stand-still while the application asks for nothing").during(STAND_STILL)
                .atMost(STAND_STILL.multipliedBy(4)).until(() ->
                        bufferFactory.allocatedBytes() - consumer.received.get() <= CHUNK
                        && sent.produced() - consumer.received.get() <= IN_FLIGHT_BOUND
                        && server.stats().buffersLeased() <= LEASED_BOUND);
        consumer.resume();

        assertThat(answer.get(2, TimeUnit.MINUTES).body()).isEqualTo(SIZE + " " + sent.crc());
        assertThat(mostLeased.get()).as("most pooled buffers leased at once").isLessThanOrEqualTo(LEASED_BOUND);
    }

    @Test
    void writesADownloadOnlyAsFastAsTheClientReadsIt() throws Exception {
        HttpResponse<InputStream> response = client.send(HttpRequest.newBuilder(server.uri("/download"))
                .timeout(Duration.ofMinutes(2)).build(), BodyHandlers.ofInputStream());
        Pattern received = new Pattern();

        try (InputStream body = response.body()) {
            received.drain(body, PAUSE_AT);
            await("the server at a stand-still while the client reads nothing").during(STAND_STILL)
                    .atMost(STAND_STILL.multipliedBy(4)).until(() ->
                            download.produced() - received.produced() <= IN_FLIGHT_BOUND
                            && server.stats().buffersLeased() <= LEASED_BOUND);
            received.drain(body, Long.MAX_VALUE);
        }

        assertThat(received.produced()).isEqualTo(SIZE);
        assertThat(received.crc()).isEqualTo(download.crc());
        assertThat(mostLeased.get()).as("most pooled buffers leased at once").isLessThanOrEqualTo(LEASED_BOUND);
    }

    /**
     * The application side of the upload: asks for one buffer at a time, and stops asking at {@link #PAUSE_AT}
     * until told to {@link #resume()}.
     */
    private static final class PausingConsumer extends BaseSubscriber<DataBuffer> {

        final CompletableFuture<Void> paused = new CompletableFuture<>();
        final CompletableFuture<Long> done = new CompletableFuture<>();
        final AtomicLong received = new AtomicLong();
        final CRC32 crc = new CRC32();

        @Override
        protected void hookOnSubscribe(Subscription subscription) {
            request(1);
        }

        @Override
        protected void hookOnNext(DataBuffer buffer) {
            try (DataBuffer.ByteBufferIterator buffers = buffer.readableByteBuffers()) {
                buffers.forEachRemaining(crc::update);
            }
            long total = received.addAndGet(buffer.readableByteCount());
            DataBufferUtils.release(buffer);
            if (total >= PAUSE_AT && !paused.isDone()) {
                paused.complete(null);
            } else {
                request(1);
            }
        }

        void resume() {
            request(1);
        }

        @Override
        protected void hookOnComplete() {
            done.complete(received.get());
        }

        @Override
        protected void hookOnError(Throwable failure) {
            done.completeExceptionally(failure);
        }
    }

    /**
     * Bytes that vary from chunk to chunk (a random block, rotated), with a count and a CRC-32 of those produced or
     * consumed, so both ends can compare what went through.
     */
    private static final class Pattern {

        private static final byte[] BLOCK = new byte[CHUNK];

        static {
            new Random(29).nextBytes(BLOCK);
        }

        private final CRC32 crc = new CRC32();
        private final AtomicLong produced = new AtomicLong();

        synchronized byte[] next(int length) {
            byte[] bytes = new byte[length];
            int rotation = (int) ((produced.get() / CHUNK * 7919) % CHUNK);
            for (int at = 0; at < length; ) {
                int count = Math.min(length - at, CHUNK - (rotation + at) % CHUNK);
                System.arraycopy(BLOCK, (rotation + at) % CHUNK, bytes, at, count);
                at += count;
            }
            crc.update(bytes);
            produced.addAndGet(length);
            return bytes;
        }

        long produced() {
            return produced.get();
        }

        synchronized long crc() {
            return crc.getValue();
        }

        /** The pattern's first {@code size} bytes as a stream, produced as they are read. */
        InputStream asStream(long size) {
            return new InputStream() {
                @Override
                public int read() {
                    byte[] one = new byte[1];
                    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
                }

                @Override
                public int read(byte[] target, int offset, int length) {
                    int count = (int) Math.min(Math.min(length, CHUNK), size - produced());
                    if (count <= 0) {
                        return -1;
                    }
                    System.arraycopy(next(count), 0, target, offset, count);
                    return count;
                }
            };
        }

        /** Reads {@code in} into the count and the CRC, until {@code limit} bytes in all or its end. */
        synchronized void drain(InputStream in, long limit) throws IOException {
            byte[] bytes = new byte[CHUNK];
            while (produced.get() < limit) {
                int count = in.read(bytes, 0, (int) Math.min(bytes.length, limit - produced.get()));
                if (count < 0) {
                    return;
                }
                crc.update(bytes, 0, count);
                produced.addAndGet(count);
            }
        }
    }
}
