package io.sprout.boot.servlet.http;

import io.sprout.engine.AsyncExchange;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpUpgradeHandler;

import java.io.IOException;

/**
 * A request's switch to another protocol, asked for during a dispatch and carried out once it returns: to an
 * application's {@link HttpUpgradeHandler} over servlet streams, or to a protocol the container implements itself
 * ({@link ConnectionTakeover}, WebSocket). At most one per request. Used by the request's worker only.
 */
final class ProtocolUpgrade {

    private final SproutRequest request;
    private HttpUpgradeHandler handler;
    private ConnectionTakeover takeover;

    ProtocolUpgrade(SproutRequest request) {
        this.request = request;
    }

    /** Sets status 101 and returns a new handler of {@code type}, which gets the connection in {@link #carryOut}. */
    <T extends HttpUpgradeHandler> T toHandler(Class<T> type, SproutResponse response) throws ServletException {
        checkAllowed(response);
        T created;
        try {
            created = type.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new ServletException("Cannot create the HttpUpgradeHandler " + type.getName(), e);
        }
        switchProtocols(response);
        handler = created;
        return created;
    }

    /** Sets status 101; {@code protocol} gets the engine's request and response in {@link #carryOut}. */
    void toTakeover(ConnectionTakeover protocol, SproutResponse response) {
        checkAllowed(response);
        switchProtocols(response);
        takeover = protocol;
    }

    private void checkAllowed(SproutResponse response) {
        if (requested()) {
            throw new IllegalStateException("upgrade() has already been called for this request");
        }
        if (response.isCommitted()) {
            throw new IllegalStateException("Cannot upgrade: the response is already committed");
        }
    }

    /** Suspends the engine exchange here, on the dispatch's thread, where the engine allows it. */
    private void switchProtocols(SproutResponse response) {
        request.engineExchange();
        response.setStatus(HttpServletResponse.SC_SWITCHING_PROTOCOLS);
    }

    boolean requested() {
        return handler != null || takeover != null;
    }

    /** Whether an {@link HttpUpgradeHandler} reads the body: it may set a read listener without async. */
    boolean toHandlerRequested() {
        return handler != null;
    }

    /** Sends the 101 and gives the raw connection to the handler or the takeover. After the dispatch only. */
    void carryOut(SproutResponse response) throws IOException {
        if (takeover != null) {
            takeover.takeOver(request.engineRequest(), response.engine());
            return;
        }
        AsyncExchange exchange = request.engineExchange();
        exchange.upgrade();
        UpgradedConnection connection = new UpgradedConnection(request, response, exchange, handler);
        exchange.onEnd(cause -> connection.ended());
        request.inContainer(() -> handler.init(connection));
    }
}
