package io.sprout.boot.reactive;

import io.sprout.engine.AsyncExchange;
import io.sprout.engine.HttpResponse;
import reactor.core.publisher.BaseSubscriber;

import java.io.IOException;
import java.lang.System.Logger.Level;

/**
 * Ends the exchange when the application's handling ends: completes it on success, unless the handling upgraded the
 * connection (a WebSocket handshake); on failure answers
 * {@code 500} while nothing has been sent, or aborts the connection once something has (the client can no longer
 * be told). The failure is handled on the exchange's worker, after any write or flush already queued there, so it
 * sees the response as the client does. {@link #dispose()} cancels the handling.
 */
final class HandlerCompletion extends BaseSubscriber<Void> {

    private static final System.Logger LOG = System.getLogger(HandlerCompletion.class.getName());

    private final AsyncExchange exchange;
    private final HttpResponse response;
    private final String requestLine;

    /** @param requestLine how the request is named in the log, e.g. {@code GET /path} */
    HandlerCompletion(AsyncExchange exchange, HttpResponse response, String requestLine) {
        this.exchange = exchange;
        this.response = response;
        this.requestLine = requestLine;
    }

    @Override
    protected void hookOnComplete() {
        // After a 101 the connection is the upgraded protocol's (a WebSocket), which ends it when it closes.
        if (response.status() != 101) {
            exchange.complete();
        }
    }

    @Override
    protected void hookOnError(Throwable failure) {
        if (!exchange.execute(() -> failed(failure))) {
            // The exchange ended first (the client left, a timeout, a stop): its end is what failed the handling.
            LOG.log(Level.DEBUG, "Handling " + requestLine + " failed after the exchange ended: " + failure);
        }
    }

    /** Worker. */
    private void failed(Throwable failure) {
        // A failed read or write is the client's doing (gone, too slow, a malformed body the engine answers).
        Level level = failure instanceof IOException ? Level.DEBUG : Level.WARNING;
        if (response.committed()) {
            LOG.log(level, "Handling " + requestLine + " failed after the response was committed: aborting", failure);
            exchange.abort(failure);
            return;
        }
        LOG.log(level, "Handling " + requestLine + " failed: answering 500", failure);
        response.reset();
        response.status(500);
        exchange.complete();
    }
}
