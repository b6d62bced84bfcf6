package io.sprout.engine.websocket;

import io.sprout.engine.WebSocket;
import io.sprout.engine.WebSocketHandler;

import java.lang.System.Logger.Level;

/**
 * Runs one connection's {@link WebSocketHandler} callbacks: what a callback throws goes to the handler's
 * {@code onError} (the connection stays open), and which thread is inside a callback is known, so that a send from
 * it is written at once (see {@link WebSocketConnection}). Callbacks run one at a time; the thread check is for any
 * thread.
 */
final class HandlerCalls {

    private static final System.Logger LOG = System.getLogger(HandlerCalls.class.getName());

    private final WebSocket socket;
    private final WebSocketHandler handler;
    /** The thread running a handler callback now, if any. */
    private volatile Thread inCallback;

    HandlerCalls(WebSocket socket, WebSocketHandler handler) {
        this.socket = socket;
        this.handler = handler;
    }

    /** Runs {@code callback}, a call of one of the handler's methods, on this thread. */
    void call(Runnable callback) {
        Thread outer = inCallback;
        inCallback = Thread.currentThread();
        try {
            callback.run();
        } catch (RuntimeException | Error failure) {
            LOG.log(Level.DEBUG, "A WebSocket handler failed", failure);
            reportError(failure);
        } finally {
            inCallback = outer;
        }
    }

    /** Tells the handler's {@code onError}; what that throws in turn is only logged, nobody else could hear it. */
    void reportError(Throwable failure) {
        try {
            handler.onError(socket, failure);
        } catch (RuntimeException | Error again) {
            LOG.log(Level.WARNING, "A WebSocket handler's onError failed", again);
        }
    }

    /** Whether the calling thread is running one of the handler's callbacks. */
    boolean inCallback() {
        return inCallback == Thread.currentThread();
    }
}
