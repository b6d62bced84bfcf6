package io.sprout.boot.reactive.websocket;

import io.sprout.boot.stats.WebSocketStats;
import io.sprout.engine.WebSocket;
import org.reactivestreams.Publisher;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.web.reactive.socket.CloseStatus;
import org.springframework.web.reactive.socket.HandshakeInfo;
import org.springframework.web.reactive.socket.WebSocketMessage;
import org.springframework.web.reactive.socket.adapter.AbstractWebSocketSession;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;

/**
 * A Spring {@code WebSocketSession} over an engine {@link WebSocket}.
 *
 * <p><b>Sending</b> hands the engine a window of messages ({@link MessageSender}): the next is requested while the
 * messages not yet written fit in it, so an application that produces faster than the client reads is held back
 * instead of filling the engine's queue, whose bound ({@code sprout.server.websocket.outbound-queue-limit}) would
 * otherwise fail the send, and a burst still leaves in one write. Each message's buffer is released as soon as the
 * engine has copied it. {@code send} may be called more than once; frames keep the order in which the engine was
 * handed them.
 *
 * <p><b>Receiving</b>: see {@link ReceivedMessages}. Pings are answered by the engine and not delivered, as on
 * Reactor Netty.
 */
final class SproutWebSocketSession extends AbstractWebSocketSession<WebSocket> {

    private final ReceivedMessages received;
    private final Sinks.One<CloseStatus> closeStatus = Sinks.one();
    private final long sendWindow;
    private final WebSocketStats stats;

    /**
     * @param sendWindow the bytes a send may have in the engine and not yet written ({@link MessageSender})
     * @param stats where the text and binary messages sent are counted
     */
    SproutWebSocketSession(WebSocket socket, String id, HandshakeInfo info, DataBufferFactory bufferFactory,
            long sendWindow, WebSocketStats stats) {
        super(socket, id, info, bufferFactory);
        this.sendWindow = sendWindow;
        this.stats = stats;
        this.received = new ReceivedMessages(socket, getLogPrefix());
    }

    @Override
    public Flux<WebSocketMessage> receive() {
        return Flux.from(received);
    }

    @Override
    public Mono<Void> send(Publisher<WebSocketMessage> messages) {
        return Mono.create(done -> Flux.from(messages).subscribe(
                new MessageSender(this::sendToEngine, sendWindow, done)));
    }

    @Override
    public boolean isOpen() {
        return getDelegate().isOpen();
    }

    /**
     * Starts the closing handshake. {@code 1005} and {@code 1006} only describe a Close received or missing and may
     * not be sent (RFC 6455 §7.4.1): they close with {@code 1000}.
     */
    @Override
    public Mono<Void> close(CloseStatus status) {
        int code = status.getCode() == CloseStatus.NO_STATUS_CODE.getCode()
                || status.getCode() == CloseStatus.NO_CLOSE_FRAME.getCode() ? CloseStatus.NORMAL.getCode()
                : status.getCode();
        String reason = status.getReason() == null ? "" : status.getReason();
        return Mono.fromFuture(() -> getDelegate().close(code, reason));
    }

    @Override
    public Mono<CloseStatus> closeStatus() {
        return closeStatus.asMono();
    }

    /** A worker: a message from the client. */
    void received(WebSocketMessage message) {
        received.received(message);
    }

    /**
     * A worker: the connection has closed, with {@code failure} when it broke or the client broke the protocol:
     * {@code receive()} completes or fails with it, and {@code closeStatus()} gives the code either way.
     */
    void closed(CloseStatus status, Throwable failure) {
        closeStatus.tryEmitValue(status);
        if (failure != null) {
            received.onError(failure);
        } else {
            received.onAllDataRead();
        }
    }

    /**
     * Text and binary messages are counted before they are handed over, as the Jakarta container counts them, so a
     * client that has the message always sees it counted.
     */
    private CompletableFuture<Void> sendToEngine(WebSocketMessage message) {
        DataBuffer payload = message.getPayload();
        try {
            WebSocket socket = getDelegate();
            return switch (message.getType()) {
                // A text message's payload is its UTF-8 encoding (WebSocketSession.textMessage): sent as it is.
                case TEXT -> {
                    stats.sent();
                    yield socket.sendTextBytes(bytes(payload), true);
                }
                case BINARY -> {
                    stats.sent();
                    yield socket.sendBinary(bytes(payload), true);
                }
                case PING -> socket.sendPing(bytes(payload));
                case PONG -> socket.sendPong(bytes(payload));
            };
        } finally {
            // Every send has copied the payload by the time it returns.
            DataBufferUtils.release(payload);
        }
    }

    /** The payload's bytes without a copy when it is one buffer; the engine copies them anyway. */
    private static ByteBuffer bytes(DataBuffer payload) {
        try (DataBuffer.ByteBufferIterator buffers = payload.readableByteBuffers()) {
            ByteBuffer first = buffers.hasNext() ? buffers.next() : ByteBuffer.allocate(0);
            if (!buffers.hasNext()) {
                return first;
            }
        }
        byte[] whole = new byte[payload.readableByteCount()];
        payload.read(whole);
        return ByteBuffer.wrap(whole);
    }
}
