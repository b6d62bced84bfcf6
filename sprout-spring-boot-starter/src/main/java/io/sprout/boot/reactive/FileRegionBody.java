package io.sprout.boot.reactive;

import io.sprout.engine.AsyncExchange;
import io.sprout.engine.HttpResponse;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.Supplier;

/**
 * A region of a file as the whole response body (Spring's {@code ZeroCopyHttpOutputMessage}): sent by the engine
 * straight from the file to the socket where the exchange can ({@link AsyncExchange#sendFileRegion}), and written
 * through the heap by the copying fallback where it cannot (over TLS, on an HTTP/2 stream, when the response is
 * compressed). The engine's {@link AsyncExchange#sendsFileRegions()} chooses, once the response has committed: only
 * the commit runs the listener that decides on compression.
 *
 * <p>All of it runs in the exchange's turn, as the body writes do: the file is opened first, so a file that cannot be
 * read fails the response before its head and can still be answered with an error; then the response commits, and
 * the region goes to the engine as soon as the engine takes a write. From then on the engine owns the file and closes
 * it however the region ends; until then, the exchange's end closes it.
 */
final class FileRegionBody {

    private final AsyncExchange exchange;
    private final HttpResponse response;

    FileRegionBody(AsyncExchange exchange, HttpResponse response) {
        this.exchange = exchange;
        this.response = response;
    }

    /**
     * Any thread: sends {@code count} bytes of {@code file} from {@code position} once subscribed; completes when the
     * last of them is sent.
     *
     * @param copying writes the region through the heap, for an exchange that cannot send it from the file
     */
    Mono<Void> send(Path file, long position, long count, Supplier<Mono<Void>> copying) {
        return Mono.create(sink -> {
            if (!exchange.runOrExecute(() -> start(file, position, count, copying, sink))) {
                sink.error(new IOException("The exchange ended before its file could be sent"));
            }
        });
    }

    /** The exchange's turn. */
    private void start(Path file, long position, long count, Supplier<Mono<Void>> copying, MonoSink<Void> sink) {
        FileChannel channel;
        try {
            channel = FileChannel.open(file, StandardOpenOption.READ);
        } catch (IOException unreadable) {
            sink.error(unreadable);
            return;
        }
        // Closing after the engine has (or a second time) does nothing.
        exchange.onEnd(ended -> closeQuietly(channel));
        try {
            response.body().flush();
        } catch (IOException gone) {
            closeQuietly(channel);
            sink.error(gone);
            return;
        }
        if (!exchange.sendsFileRegions()) {
            closeQuietly(channel);
            sink.onCancel(copying.get().subscribe(null, sink::error, () -> sink.success()));
            return;
        }
        Runnable transfer = () -> exchange.sendFileRegion(channel, position, count).whenComplete((sent, failure) -> {
            if (failure != null) {
                sink.error(failure);
            } else {
                sink.success();
            }
        });
        if (exchange.responseReady()) {
            transfer.run();
        } else {
            // The head is still being sent: the region follows it.
            exchange.onResponseReady(transfer);
        }
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // A read-only channel loses nothing when its close fails.
        }
    }
}
