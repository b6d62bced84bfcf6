package io.sprout.engine.websocket;

import io.sprout.engine.AsyncExchange;
import io.sprout.engine.WebSocket;
import io.sprout.engine.WebSocketConfig;
import io.sprout.engine.WebSocketHandler;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.zip.Deflater;

/**
 * One WebSocket connection on an upgraded exchange. The {@link FrameReader} reads on the engine's readiness
 * callbacks: bytes go through the {@link FrameParser} and the {@link MessageAssembler} straight to the handler, so
 * messages are delivered on a worker, one at a time and in order, and in either mode a connection waiting for the
 * client holds no worker. Sends from any thread go through the {@link Outbound} queue.
 *
 * <pre>
 *   OPEN ──close() / failure──▶ CLOSING (Close sent) ──client's Close / close timeout──▶ CLOSED
 *     └───────client's Close (answered)──────────────────────────────────────────────▶ CLOSED
 * </pre>
 *
 * The connection closes (TCP) once the closing handshake is done, the server closing first as RFC 6455 §7.1.1
 * asks; a connection that ends otherwise is reported as 1006.
 */
final class WebSocketConnection implements WebSocket, MessageListener, FrameReader.Events {

    private static final System.Logger LOG = System.getLogger(WebSocketConnection.class.getName());

    private enum State { OPEN, CLOSING, CLOSED }

    private final AsyncExchange exchange;
    private final WebSocketHandler handler;
    private final WebSocketConfig config;
    private final String extensions;
    private final MessageAssembler assembler;
    private final FrameReader reader;
    private final MessageInflater inflater;
    private final MessageDeflater deflater;
    private final Outbound outbound;
    /** The handler's {@link WebSocketHandler#nonBlocking()}: its callbacks run inline, its foreign sends in turn. */
    private final boolean nonBlocking;
    /** Runs the handler's callbacks; a send from the thread inside one is written at once. */
    private final HandlerCalls calls;
    private final AtomicBoolean closeTold = new AtomicBoolean();
    private volatile State state = State.OPEN;
    /** Whether a fragmented message is being sent: the next fragment is a continuation frame. */
    private boolean sendingFragments;
    /** The idle timeout in force: the configuration's until {@link #idleTimeout(Duration)} replaces it. */
    private volatile Duration idleTimeout;
    /** The Close frame this side sent, once it has. */
    private CompletableFuture<Void> closeSent;

    /**
     * Opens a WebSocket on an exchange whose 101 has been sent ({@link AsyncExchange#upgrade()}): the engine's
     * side of {@link WebSocketUpgrade}.
     *
     * @param deflate the agreed {@code permessage-deflate} parameters, or {@code null}
     */
    static WebSocket open(AsyncExchange exchange, InputStream in, OutputStream out, WebSocketConfig config,
            DeflateNegotiation deflate, WebSocketHandler handler) {
        exchange.nonBlockingResponse();
        WebSocketConnection connection = new WebSocketConnection(exchange, in, out, config, deflate, handler);
        connection.start();
        return connection;
    }

    private WebSocketConnection(AsyncExchange exchange, InputStream in, OutputStream out, WebSocketConfig config,
            DeflateNegotiation deflate, WebSocketHandler handler) {
        this.exchange = exchange;
        this.handler = handler;
        this.calls = new HandlerCalls(this, handler);
        this.nonBlocking = handler.nonBlocking();
        this.config = config;
        this.idleTimeout = config.idleTimeout();
        this.extensions = deflate == null ? "" : deflate.responseValue();
        this.inflater = deflate == null ? null : new MessageInflater(deflate.clientNoContextTakeover());
        this.deflater = deflate == null || !deflate.serverCompresses() ? null
                : new MessageDeflater(Deflater.DEFAULT_COMPRESSION, deflate.serverNoContextTakeover());
        this.assembler = new MessageAssembler(this, config.maxTextMessageSize(), config.maxBinaryMessageSize(),
                inflater);
        this.reader = new FrameReader(exchange, in, new FrameParser(assembler, config.maxFrameSize(), deflate != null),
                () -> state == State.CLOSED, this);
        this.outbound = new Outbound(exchange, out, config.maxQueuedBytes());
    }

    /** Opens the connection on a worker and starts reading. */
    private void start() {
        exchange.idleTimeout(idleTimeout);
        if (nonBlocking) {
            exchange.readinessCallbacksInline();
        }
        exchange.onEnd(this::ended);
        exchange.onShutdown(() -> close(CloseCodes.GOING_AWAY, "The server is shutting down"));
        exchange.execute(() -> {
            calls.call(() -> handler.onOpen(this));
            reader.awaitBytes();
        });
    }

    // ---- reading: a worker, one at a time ----

    @Override
    public void violation(CloseException violation) {
        fail(violation);
    }

    @Override
    public void idle(SocketTimeoutException timeout) {
        if (state == State.OPEN) {
            close(CloseCodes.GOING_AWAY, "Idle for longer than " + idleTimeout);
            reader.awaitBytes();
        } else {
            lost(timeout);
        }
    }

    @Override
    public void text(ByteBuffer utf8) {
        calls.call(() -> handler.onTextBytes(this, utf8));
    }

    @Override
    public void binary(ByteBuffer message) {
        calls.call(() -> handler.onBinary(this, message));
    }

    @Override
    public boolean inParts(Opcode type) {
        return type == Opcode.TEXT ? handler.textInParts() : handler.binaryInParts();
    }

    @Override
    public void textPart(String part, boolean last) {
        calls.call(() -> handler.onTextPart(this, part, last));
    }

    @Override
    public void binaryPart(ByteBuffer part, boolean last) {
        calls.call(() -> handler.onBinaryPart(this, part, last));
    }

    @Override
    public void ping(ByteBuffer payload) {
        if (state == State.OPEN) {
            control(Opcode.PONG, payload, false);
        }
    }

    @Override
    public void pong(ByteBuffer payload) {
        calls.call(() -> handler.onPong(this, payload));
    }

    /** The client's Close: answered with the same code (the closing handshake), then the connection closes. */
    @Override
    public void closeFrame(int code, String reason) {
        CompletableFuture<Void> answered;
        State before;
        synchronized (this) {
            before = state;
            state = State.CLOSED;
            answered = before == State.OPEN
                    ? control(Opcode.CLOSE, ByteBuffer.wrap(FrameWriter.closePayload(code, "")), true)
                    : closeSentOrDone();
        }
        if (before == State.CLOSING) {
            // The closing handshake is done: the close timeout has nothing left to guard.
            exchange.timeout(Duration.ZERO, null);
        }
        answered.whenComplete((sent, failure) -> exchange.complete());
        tellClosed(code, reason);
    }

    /**
     * The client broke the protocol or a limit: Close with the code, and the connection closes once it is sent.
     * Only then are the handler's {@code onError} and {@code onClose} told, in that order.
     */
    private void fail(CloseException violation) {
        LOG.log(Level.DEBUG, "Failing a WebSocket connection with " + violation.code() + ": "
                + violation.getMessage());
        CompletableFuture<Void> sent;
        synchronized (this) {
            State before = state;
            state = State.CLOSED;
            sent = before == State.OPEN ? control(Opcode.CLOSE,
                    ByteBuffer.wrap(FrameWriter.closePayload(violation.code(), violation.getMessage())), true)
                    : closeSentOrDone();
        }
        sent.whenComplete((done, failure) -> exchange.complete());
        // The Close with the RFC's code is queued and the connection reports closed before the application hears
        // of the failure, as on Tomcat and Jetty: a close(...) in its error handler cannot replace the code.
        calls.reportError(violation);
        tellClosed(violation.code(), violation.getMessage());
    }

    private CompletableFuture<Void> closeSentOrDone() {
        return closeSent != null ? closeSent : CompletableFuture.completedFuture(null);
    }

    @Override
    public void lost(IOException cause) {
        LOG.log(Level.DEBUG, "A WebSocket connection was lost: " + cause);
        exchange.abort(cause);
    }

    /** The exchange ended (any thread): completed after a closing handshake, or aborted. */
    private void ended(Throwable cause) {
        IOException reason = cause instanceof IOException io ? io
                : new IOException(cause == null ? "The WebSocket connection has closed" : cause.toString(), cause);
        synchronized (this) {
            state = State.CLOSED;
            if (deflater != null) {
                deflater.close();
            }
        }
        outbound.fail(reason);
        if (inflater != null) {
            // The reading worker is done: the exchange ended, so no readiness callback runs any more.
            inflater.close();
        }
        if (cause != null && !closeTold.get()) {
            calls.reportError(cause);
        }
        tellClosed(CloseCodes.ABNORMAL, cause == null ? "" : String.valueOf(cause.getMessage()));
    }

    private void tellClosed(int code, String reason) {
        if (closeTold.compareAndSet(false, true)) {
            calls.call(() -> handler.onClose(this, code, reason));
        }
    }

    // ---- sending: any thread ----

    @Override
    public CompletableFuture<Void> sendText(CharSequence text, boolean last) {
        // String.getBytes sizes the array exactly and copies Latin-1 text without a coding loop; like
        // Charset.encode, it replaces a lone surrogate with '?'. The array is the frame's: no copy follows.
        return data(Opcode.TEXT, ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.UTF_8)), last);
    }

    @Override
    public CompletableFuture<Void> sendTextBytes(ByteBuffer utf8, boolean last) {
        return data(Opcode.TEXT, copy(utf8), last);
    }

    @Override
    public CompletableFuture<Void> sendBinary(ByteBuffer data, boolean last) {
        // Copied: the caller may reuse its buffer as soon as the send returns, before the frame is written.
        return data(Opcode.BINARY, copy(data), last);
    }

    @Override
    public CompletableFuture<Void> sendPing(ByteBuffer payload) {
        return control(Opcode.PING, payload, false);
    }

    @Override
    public CompletableFuture<Void> sendPong(ByteBuffer payload) {
        return control(Opcode.PONG, payload, false);
    }

    @Override
    public CompletableFuture<Void> close(int code, String reason) {
        synchronized (this) {
            if (state != State.OPEN) {
                return closeSentOrDone();
            }
            state = State.CLOSING;
            closeSent = control(Opcode.CLOSE, ByteBuffer.wrap(FrameWriter.closePayload(code, reason)), true);
        }
        // On the server's timer, through the exchange: cancelled when the client's Close arrives, and with the
        // exchange whenever it ends, so an answered close leaves no timer behind.
        exchange.timeout(config.closeTimeout(), () -> {
            if (state != State.CLOSED) {
                exchange.abort(new SocketTimeoutException("No Close from the client within " + config.closeTimeout()));
            }
        });
        return closeSent;
    }

    @Override
    public void abort() {
        exchange.abort(new IOException("The WebSocket was aborted by the application"));
    }

    @Override
    public void idleTimeout(Duration timeout) {
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("idleTimeout must not be negative but was " + timeout);
        }
        idleTimeout = timeout;
        exchange.idleTimeout(timeout);
    }

    @Override
    public void maxMessageSizes(int text, int binary) {
        WebSocketConfig.checkMessageSizes(text, binary);
        assembler.limits(text, binary);
    }

    @Override
    public void suspendReading() {
        reader.suspend();
    }

    @Override
    public void resumeReading() {
        reader.resume();
    }

    @Override
    public boolean isOpen() {
        return state == State.OPEN;
    }

    @Override
    public String extensions() {
        return extensions;
    }

    private CompletableFuture<Void> data(Opcode type, ByteBuffer payload, boolean last) {
        CompletableFuture<Void> sent = new CompletableFuture<>();
        boolean mustWrite;
        synchronized (this) {
            if (state != State.OPEN) {
                return CompletableFuture.failedFuture(new IOException("The WebSocket is closing or closed"));
            }
            Opcode opcode = sendingFragments ? Opcode.CONTINUATION : type;
            boolean compress = deflater != null && last && !sendingFragments
                    && MessageDeflater.worthCompressing(payload.remaining());
            ByteBuffer body = compress ? ByteBuffer.wrap(deflater.deflate(payload)) : payload;
            sendingFragments = !last;
            // Queued under the lock, so fragments and messages keep the order of the calls.
            mustWrite = outbound.enqueue(FrameWriter.firstByte(last, compress, opcode, body.remaining()), body,
                    false, sent);
        }
        if (mustWrite) {
            write();
        }
        return sent;
    }

    /**
     * Writes the queued frames. A non-blocking handler's send from another thread than its callback's (a broadcast,
     * a timer, a reactive source) leaves the writing to a task in the connection's turn instead: the frames that
     * thread and others queue meanwhile then go out in one write to the socket rather than one each, and the
     * producer moves on to its next connection at once. A callback's send (an echo) is written at once, as is any
     * send of a handler that may block: it may be waiting for the future on this thread.
     */
    private void write() {
        if (nonBlocking && !calls.inCallback()) {
            // An exchange that has ended takes no task: its end has failed the queued frames (Outbound#fail).
            exchange.execute(outbound::write);
        } else {
            outbound.write();
        }
    }

    private CompletableFuture<Void> control(Opcode opcode, ByteBuffer payload, boolean last) {
        if (payload.remaining() > 125) {
            return CompletableFuture.failedFuture(new IllegalArgumentException(
                    "A control frame payload is at most 125 bytes, not " + payload.remaining()));
        }
        CompletableFuture<Void> sent = new CompletableFuture<>();
        if (outbound.enqueue(FrameWriter.firstByte(true, false, opcode, payload.remaining()), copy(payload), last,
                sent)) {
            outbound.write();
        }
        return sent;
    }

    private static ByteBuffer copy(ByteBuffer payload) {
        return ByteBuffer.allocate(payload.remaining()).put(payload.duplicate()).flip();
    }
}
