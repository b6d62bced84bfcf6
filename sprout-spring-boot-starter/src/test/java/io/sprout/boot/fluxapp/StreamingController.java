package io.sprout.boot.fluxapp;

import io.sprout.boot.fluxapp.FluxTestApplication.Item;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.time.Duration;

/** Bodies that are streams: NDJSON, chunked text, server-sent events, a large body, and an echo of the request's. */
@RestController
class StreamingController {

    /** The size of {@link #large()} and {@link #largeStream()}: large enough to need many writes and reads. */
    static final int LARGE_LINES = 16 * 1024;

    /** A pause between elements, so the stream is written in several flushes, not as one buffer. */
    private static final Duration PACE = Duration.ofMillis(5);

    @GetMapping(value = "/stream/ndjson", produces = MediaType.APPLICATION_NDJSON_VALUE)
    Flux<Item> ndjson() {
        return Flux.range(1, 5).delayElements(PACE).map(id -> new Item(id, "item-" + id));
    }

    @GetMapping(value = "/stream/text", produces = MediaType.TEXT_PLAIN_VALUE)
    Flux<String> text() {
        return Flux.range(0, 5).delayElements(PACE).map(index -> "chunk" + index + "\n");
    }

    @GetMapping(value = "/stream/sse", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    Flux<ServerSentEvent<String>> events() {
        return Flux.range(1, 3).delayElements(PACE).map(index -> ServerSentEvent.builder("n" + index)
                .id(String.valueOf(index)).event("tick").build());
    }

    /** 1 MiB from one {@code Mono}: Spring knows its length before writing. */
    @GetMapping(value = "/stream/large", produces = MediaType.TEXT_PLAIN_VALUE)
    Mono<String> large() {
        return Mono.fromSupplier(() -> {
            StringBuilder body = new StringBuilder(LARGE_LINES * 64);
            for (int line = 0; line < LARGE_LINES; line++) {
                body.append(line(line));
            }
            return body.toString();
        });
    }

    /** The same 1 MiB as a stream of lines: the length is not known when the head is written. */
    @GetMapping(value = "/stream/large-stream", produces = MediaType.TEXT_PLAIN_VALUE)
    Flux<String> largeStream() {
        return Flux.range(0, LARGE_LINES).map(StreamingController::line);
    }

    /** 64 bytes: a line number padded with a letter that changes with it, so a lost or doubled line shows. */
    private static String line(int number) {
        String prefix = String.format("%08d ", number);
        return prefix + String.valueOf((char) ('a' + number % 26)).repeat(63 - prefix.length()) + "\n";
    }

    /** Two elements and then a failure, in a media type Spring flushes element by element. */
    @GetMapping(value = "/stream/broken-ndjson", produces = MediaType.APPLICATION_NDJSON_VALUE)
    Flux<Item> brokenNdjson() {
        return Flux.range(1, 2).delayElements(PACE).map(id -> new Item(id, "item-" + id))
                .concatWith(Flux.error(new IllegalStateException("broken stream")));
    }

    /**
     * The same in text, which Spring writes without flushes: whether anything has left the server before the
     * failure is up to the server.
     */
    @GetMapping(value = "/stream/broken-text", produces = MediaType.TEXT_PLAIN_VALUE)
    Flux<String> brokenText() {
        return Flux.range(0, 2).delayElements(PACE).map(index -> "chunk" + index + "\n")
                .concatWith(Flux.error(new IllegalStateException("broken stream")));
    }

    /** The request body back as it arrives, buffer by buffer, without collecting it. */
    @PostMapping("/stream/echo")
    Flux<DataBuffer> echo(@RequestBody Flux<DataBuffer> body) {
        return body;
    }
}
