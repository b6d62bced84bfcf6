package io.sprout.engine;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * An open WebSocket connection (RFC 6455), made by {@link io.sprout.engine.websocket.WebSocketUpgrade}. Every method
 * may be called from any thread. A send queues one frame and returns a future completed once the frame has been
 * handed to the connection (or failed: the connection is closing or gone, or more than
 * {@link WebSocketConfig#maxQueuedBytes()} are waiting for a client that does not read). Frames go out in the order
 * their sends were called. Once the upgrading handler has returned, a send never waits for the client, in either
 * mode: the socket is non-blocking, so the calling thread writes what it takes at once (unless another send is
 * writing) and the rest goes out from the engine's writability callback, on a worker. Before that, in {@code hybrid}
 * mode, the socket is still blocking and a send writes its whole frame. On the connection of a
 * {@linkplain WebSocketHandler#nonBlocking() non-blocking} handler, a send from a thread that is not running one of
 * its callbacks does not write: a worker writes, in the connection's turn, every frame queued by then in one go.
 */
public interface WebSocket {

    /**
     * Sends text: a whole message, or with {@code last == false} one fragment of a message that later calls
     * continue. Whole messages of at least 1,024 bytes are compressed when {@code permessage-deflate} was agreed
     * (a shorter one fits a TCP segment either way, and goes out uncompressed).
     */
    CompletableFuture<Void> sendText(CharSequence text, boolean last);

    /**
     * Sends text given as its UTF-8 bytes, as {@link #sendText} does, without decoding them: for a caller that holds
     * text already encoded (a WebFlux message's buffer). They go out as they are, unchecked: text that is not UTF-8
     * makes the client fail the connection (1007). The bytes are copied before this returns, as for
     * {@link #sendBinary}. By default decodes them and calls {@link #sendText}.
     */
    default CompletableFuture<Void> sendTextBytes(ByteBuffer utf8, boolean last) {
        return sendText(StandardCharsets.UTF_8.decode(utf8.duplicate()), last);
    }

    /** Sends binary data: a whole message, or a fragment as for {@link #sendText}. */
    CompletableFuture<Void> sendBinary(ByteBuffer data, boolean last);

    /** Sends a Ping of at most 125 bytes; the client's Pong reaches {@link WebSocketHandler#onPong}. */
    CompletableFuture<Void> sendPing(ByteBuffer payload);

    /** Sends an unsolicited Pong of at most 125 bytes (Pings are answered by the engine itself). */
    CompletableFuture<Void> sendPong(ByteBuffer payload);

    /**
     * Starts the closing handshake: sends a Close frame, after which nothing more may be sent, and closes the
     * connection when the client's Close arrives, or after {@link WebSocketConfig#closeTimeout()} without one.
     * Later calls do nothing.
     */
    CompletableFuture<Void> close(int code, String reason);

    /** Drops the connection without a closing handshake. */
    void abort();

    /**
     * Replaces the idle timeout of {@link WebSocketConfig#idleTimeout()} for this connection, from the next wait for
     * the client on: the connection is closed with 1001 once the client has sent nothing for that long.
     * {@link Duration#ZERO} for no limit.
     */
    void idleTimeout(Duration timeout);

    /**
     * Replaces the limits of {@link WebSocketConfig#maxTextMessageSize()} and
     * {@link WebSocketConfig#maxBinaryMessageSize()} for this connection, from the next message on.
     *
     * @throws IllegalArgumentException when a limit is below 1 byte or above {@code Integer.MAX_VALUE - 8}
     */
    void maxMessageSizes(int text, int binary);

    /**
     * Stops reading from the client until {@link #resumeReading()}: receive flow control. The socket is not read, so
     * the client's frames back up in TCP until its sends block, instead of piling up in memory. Takes effect before
     * the next read of the socket: messages of the read in progress (at most 16 KiB) may still be delivered. While
     * suspended, the connection hears nothing the client sends, a Close or its departure included, and the idle
     * timeout does not run. Calls while suspended do nothing.
     */
    void suspendReading();

    /** Reads on where {@link #suspendReading()} stopped; calls while reading do nothing. */
    void resumeReading();

    /** Whether messages may still be sent: no Close has been sent or received and the connection is up. */
    boolean isOpen();

    /** The extensions agreed in the handshake, as sent in {@code Sec-WebSocket-Extensions} (empty for none). */
    String extensions();
}
