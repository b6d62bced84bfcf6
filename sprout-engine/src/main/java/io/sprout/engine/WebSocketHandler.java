package io.sprout.engine;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The application side of a {@link WebSocket}. Callbacks run one at a time per connection and in the order frames
 * arrived, on a worker unless the handler is {@link #nonBlocking()}. A callback that throws is reported to
 * {@link #onError}; the connection stays open.
 */
public interface WebSocketHandler {

    /**
     * Whether no callback ever blocks (waits for I/O, a lock held long, a future): then the engine runs them where
     * it reads the frames, on its event loop, when the connection has no other task running, instead of handing
     * every read to a worker. That saves a thread hand-off per message, which is most of an echo's cost; a blocking
     * callback would stall every connection of its event loop. Sends from other threads are then written by a
     * worker in the connection's turn, together with whatever else was queued by then (see {@link WebSocket}), so
     * nothing may wait on a send's future either. Asked once, as the connection opens. Reactive handlers, whose work
     * never blocks by contract, say {@code true}.
     */
    default boolean nonBlocking() {
        return false;
    }

    /** The handshake is done; the socket may be used (and kept) from now on. */
    default void onOpen(WebSocket socket) {
    }

    /** A whole text message. */
    void onText(WebSocket socket, String message);

    /**
     * A whole text message as its UTF-8 bytes, already checked to be UTF-8 (a message that is not never gets here:
     * the connection fails with 1007). The engine always calls this; by default it decodes the bytes and calls
     * {@link #onText}. A handler that wants bytes anyway (one that wraps them in a buffer of its own) overrides it,
     * so the message is not decoded into a {@code String} only to be encoded again. The buffer is only valid during
     * the call.
     */
    default void onTextBytes(WebSocket socket, ByteBuffer utf8) {
        onText(socket, decoded(utf8));
    }

    /** The engine's buffers are arrays: a {@code String} made straight from one takes the JDK's fast paths. */
    private static String decoded(ByteBuffer utf8) {
        if (utf8.hasArray()) {
            return new String(utf8.array(), utf8.arrayOffset() + utf8.position(), utf8.remaining(),
                    StandardCharsets.UTF_8);
        }
        return StandardCharsets.UTF_8.decode(utf8.duplicate()).toString();
    }

    /** A whole binary message; the buffer is only valid during the call. */
    void onBinary(WebSocket socket, ByteBuffer message);

    /**
     * Whether text messages go to {@link #onTextPart} in parts as they arrive rather than whole to
     * {@link #onTextBytes} (and so {@link #onText}).
     * Asked as each text message starts, so the answer may change between messages. A message taken in parts has no
     * size limit ({@link WebSocketConfig#maxTextMessageSize()} bounds only a part, and at most 64 KiB are held):
     * the application decides how much of it to keep.
     */
    default boolean textInParts() {
        return false;
    }

    /** The same for binary messages and {@link #onBinaryPart}. */
    default boolean binaryInParts() {
        return false;
    }

    /**
     * A part of a text message, when {@link #textInParts()}: ends on a whole character, {@code last} for the
     * message's final part (possibly empty). A part ends at each frame's end or when it is full.
     */
    default void onTextPart(WebSocket socket, String part, boolean last) {
        throw new UnsupportedOperationException(getClass().getName() + " takes text in parts but has no onTextPart");
    }

    /** A part of a binary message, as {@link #onTextPart}; the buffer is only valid during the call. */
    default void onBinaryPart(WebSocket socket, ByteBuffer part, boolean last) {
        throw new UnsupportedOperationException(getClass().getName()
                + " takes binary messages in parts but has no onBinaryPart");
    }

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
     * Something went wrong: the client broke the protocol or a limit, the connection was lost, or a callback threw.
     * For a broken protocol or limit, the Close with the RFC's code (1002, 1007, 1009) has already been sent and the
     * socket reports closed ({@link WebSocket#isOpen()} is false, a {@code close} does nothing); {@link #onClose}
     * with that code follows.
     */
    default void onError(WebSocket socket, Throwable failure) {
    }
}
