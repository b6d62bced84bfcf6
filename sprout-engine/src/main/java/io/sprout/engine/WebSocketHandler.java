package io.sprout.engine;

import java.nio.ByteBuffer;

/**
 * The application side of a {@link WebSocket}. Callbacks run on a worker, never on an event loop, one at a time
 * per connection and in the order frames arrived. A callback that throws is reported to {@link #onError}; the
 * connection stays open.
 */
public interface WebSocketHandler {

    /** The handshake is done; the socket may be used (and kept) from now on. */
    default void onOpen(WebSocket socket) {
    }

    /** A whole text message. */
    void onText(WebSocket socket, String message);

    /** A whole binary message; the buffer is only valid during the call. */
    void onBinary(WebSocket socket, ByteBuffer message);

    /** A Pong, solicited or not; the buffer is only valid during the call. */
    default void onPong(WebSocket socket, ByteBuffer payload) {
    }

    /**
     * The connection has closed, once, last: with the code and reason of the Close frame the client sent or the
     * engine sent on failing the connection, or {@code 1006} when it ended without a closing handshake.
     */
    default void onClose(WebSocket socket, int code, String reason) {
    }

    /**
     * Something went wrong: the client broke the protocol or a limit (followed by {@link #onClose} with the code
     * sent), the connection was lost, or a callback threw.
     */
    default void onError(WebSocket socket, Throwable failure) {
    }
}
