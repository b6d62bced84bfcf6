package io.sprout.boot.reactive;

import io.sprout.engine.ExecutionMode;
import io.sprout.engine.ThreadType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.core.ResolvableType;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.client.MultipartBodyBuilder;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.http.codec.ServerSentEventHttpMessageWriter;
import org.springframework.http.codec.multipart.FilePart;
import org.springframework.http.codec.multipart.FormFieldPart;
import org.springframework.http.codec.multipart.Part;
import org.springframework.util.MultiValueMap;
import org.springframework.web.reactive.function.BodyInserters;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.adapter.WebHttpHandlerBuilder;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * WebFlux's own stack on the native adapter, called with Spring's {@link WebClient} (Reactor Netty) in every engine
 * combination: a {@link WebHttpHandlerBuilder} chain reading multipart data, a server-sent event stream written
 * with Spring's SSE writer, and a full-duplex streamed echo.
 */
@ParameterizedClass(name = "{0}/{1}")
@MethodSource("io.sprout.boot.reactive.ReactiveServer#combinations")
class ReactiveStreamingIT {

    private static final Duration PATIENCE = Duration.ofSeconds(30);

    @Parameter(0)
    ExecutionMode mode;

    @Parameter(1)
    ThreadType threads;

    private final CountDownLatch eventsCancelled = new CountDownLatch(1);
    private ReactiveServer server;
    private WebClient webClient;

    @BeforeEach
    void start() {
        server = ReactiveServer.start(mode, threads, WebHttpHandlerBuilder.webHandler(this::handle).build());
        webClient = WebClient.create(server.uri("").toString());
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private Mono<Void> handle(ServerWebExchange exchange) {
        return switch (exchange.getRequest().getPath().value()) {
            case "/parts" -> exchange.getMultipartData().flatMap(ReactiveStreamingIT::describe)
                    .flatMap(description -> exchange.getResponse().writeWith(Mono.just(exchange.getResponse()
                            .bufferFactory().wrap(description.getBytes(StandardCharsets.UTF_8)))));
            // Buffered for the reason ReactiveFailuresIT's ticks are.
            case "/events" -> new ServerSentEventHttpMessageWriter().write(Flux.interval(Duration.ofMillis(10))
                            .onBackpressureBuffer(256)
                            .map(i -> ServerSentEvent.builder("event " + i).id(Long.toString(i)).build())
                            .doOnCancel(eventsCancelled::countDown),
                    ResolvableType.forClassWithGenerics(ServerSentEvent.class, String.class),
                    MediaType.TEXT_EVENT_STREAM, exchange.getResponse(), Map.of());
            case "/echo" -> exchange.getResponse().writeWith(exchange.getRequest().getBody());
            default -> {
                exchange.getResponse().setStatusCode(HttpStatus.NOT_FOUND);
                yield Mono.empty();
            }
        };
    }

    /** {@code name=value} for a field, {@code name=file:size:sha256} for a file, sorted. */
    private static Mono<String> describe(MultiValueMap<String, Part> parts) {
        return Flux.fromIterable(parts.values()).flatMapIterable(list -> list).concatMap(part -> switch (part) {
            case FormFieldPart field -> Mono.just(field.name() + "=" + field.value());
            case FilePart file -> DataBufferUtils.join(file.content()).map(content -> {
                byte[] bytes = new byte[content.readableByteCount()];
                content.read(bytes);
                DataBufferUtils.release(content);
                return file.name() + "=" + file.filename() + ":" + bytes.length + ":"
                        + ReactiveExchangeIT.sha256(bytes);
            });
            default -> Mono.just(part.name() + "=?");
        }).collectSortedList().map(descriptions -> String.join(";", descriptions));
    }

    @Test
    void readsMultipartDataThroughTheWebHandlerChain() {
        byte[] file = new byte[100_000];
        new Random(17).nextBytes(file);
        MultipartBodyBuilder parts = new MultipartBodyBuilder();
        parts.part("name", "sprout");
        parts.part("file", file, MediaType.APPLICATION_OCTET_STREAM).filename("upload.bin");

        String description = webClient.post().uri("/parts").body(BodyInserters.fromMultipartData(parts.build()))
                .retrieve().bodyToMono(String.class).block(PATIENCE);

        assertThat(description).isEqualTo("file=upload.bin:100000:" + ReactiveExchangeIT.sha256(file) + ";name=sprout");
    }

    @Test
    void streamsServerSentEventsInOrderUntilTheClientHasEnough() throws Exception {
        AtomicReference<MediaType> contentType = new AtomicReference<>();

        List<ServerSentEvent<String>> events = webClient.get().uri("/events").accept(MediaType.TEXT_EVENT_STREAM)
                .exchangeToFlux(response -> {
                    contentType.set(response.headers().contentType().orElse(null));
                    return response.bodyToFlux(new ParameterizedTypeReference<ServerSentEvent<String>>() { });
                })
                .take(5).collectList().block(PATIENCE);

        assertThat(contentType.get()).isNotNull().matches(MediaType.TEXT_EVENT_STREAM::isCompatibleWith);
        assertThat(events).extracting(ServerSentEvent::id).containsExactly("0", "1", "2", "3", "4");
        assertThat(events).extracting(ServerSentEvent::data)
                .containsExactly("event 0", "event 1", "event 2", "event 3", "event 4");
        // Having its five events, the client closes the connection: the server's stream is cancelled.
        assertThat(eventsCancelled.await(5, TimeUnit.SECONDS)).as("the event stream was cancelled").isTrue();
    }

    /**
     * Ten mebibytes is more than the sockets' buffers hold, so the echo only finishes because the server keeps
     * reading while it writes, as the client keeps writing while it reads.
     */
    @Test
    void echoesTenMebibytesStreamedInChunksOfRandomSizes() {
        byte[] body = new byte[10 * 1024 * 1024];
        new Random(19).nextBytes(body);
        Flux<DataBuffer> pieces = Flux.fromIterable(ReactiveExchangeIT.randomSlices(body, new Random(23)))
                .map(DefaultDataBufferFactory.sharedInstance::wrap);

        byte[] echoed = DataBufferUtils.join(webClient.post().uri("/echo").body(pieces, DataBuffer.class)
                        .retrieve().bodyToFlux(DataBuffer.class), body.length)
                .map(joined -> {
                    byte[] bytes = new byte[joined.readableByteCount()];
                    joined.read(bytes);
                    DataBufferUtils.release(joined);
                    return bytes;
                }).block(PATIENCE);

        assertThat(echoed).isEqualTo(body);
    }
}
