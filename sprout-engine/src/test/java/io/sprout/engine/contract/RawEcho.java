package io.sprout.engine.contract;

import io.sprout.engine.AsyncExchange;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;

/**
 * The next protocol after a takeover, as simple as it gets: it upgrades the exchange and echoes every raw byte the
 * client sends, reading only when {@link AsyncExchange#requestReady()} and writing back at once. The client's end
 * of stream completes the exchange (a clean close); a failed read or write aborts it. On graceful shutdown it says
 * {@value #GOODBYE_TEXT} and completes.
 */
final class RawEcho {

    static final String GOODBYE_TEXT = "bye\n";

    private final AsyncExchange async;
    private final InputStream in;
    private final OutputStream out;
    private final TaskLog log;
    private final byte[] buffer = new byte[4096];
    private final CompletableFuture<IOException> failure = new CompletableFuture<>();

    private RawEcho(Suspended exchange, TaskLog log) {
        this.async = exchange.async;
        this.in = exchange.request.body();
        this.out = exchange.response.body();
        this.log = log;
    }

    /** Answers 101 for protocol "echo" and starts echoing; call on the handler's thread. */
    static RawEcho upgrade(Suspended exchange, TaskLog log) throws IOException {
        RawEcho echo = new RawEcho(exchange, log);
        exchange.response.headers().set("Upgrade", "echo");
        exchange.response.headers().set("Connection", "Upgrade");
        exchange.async.onShutdown(log.logged("shutdown", echo::sayGoodbye));
        exchange.async.upgrade();
        echo.pump();
        return echo;
    }

    /** Completes with the read or write failure that made the echo abort. */
    CompletableFuture<IOException> failure() {
        return failure;
    }

    private void pump() {
        try {
            while (async.requestReady()) {
                int count = in.read(buffer);
                if (count < 0) {
                    async.complete();
                    return;
                }
                out.write(buffer, 0, count);
                out.flush();
            }
            async.onRequestReady(log.logged("request ready", this::pump));
        } catch (IOException e) {
            failure.complete(e);
            async.abort(e);
        }
    }

    private void sayGoodbye() {
        try {
            out.write(GOODBYE_TEXT.getBytes(StandardCharsets.US_ASCII));
            out.flush();
        } catch (IOException e) {
            async.abort(e);
            return;
        }
        async.complete();
    }
}
