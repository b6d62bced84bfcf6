package io.sprout.boot.servlet.http;

import io.sprout.engine.AsyncExchange;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpUpgradeHandler;
import jakarta.servlet.http.WebConnection;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The {@link WebConnection} an {@link HttpUpgradeHandler} gets after {@code 101 Switching Protocols}: the request's
 * input and the response's output, which the engine has turned into the raw connection. Closing it closes the
 * connection cleanly; when the connection ends for any reason the handler's {@code destroy()} runs once.
 */
final class UpgradedConnection implements WebConnection {

    private final SproutRequest request;
    private final SproutResponse response;
    private final AsyncExchange exchange;
    private final HttpUpgradeHandler handler;
    private final AtomicBoolean destroyed = new AtomicBoolean();

    UpgradedConnection(SproutRequest request, SproutResponse response, AsyncExchange exchange,
            HttpUpgradeHandler handler) {
        this.request = request;
        this.response = response;
        this.exchange = exchange;
        this.handler = handler;
    }

    @Override
    public ServletInputStream getInputStream() throws IOException {
        return request.getInputStream();
    }

    @Override
    public ServletOutputStream getOutputStream() throws IOException {
        return response.getOutputStream();
    }

    /** Flushes what the handler wrote and closes the connection. */
    @Override
    public void close() {
        exchange.complete();
    }

    /** The engine exchange ended (closed by either side, or the server stopped). */
    void ended() {
        if (destroyed.compareAndSet(false, true)) {
            request.inContainer(handler::destroy);
        }
    }
}
