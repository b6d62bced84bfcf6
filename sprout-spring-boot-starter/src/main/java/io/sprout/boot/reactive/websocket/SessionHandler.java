package io.sprout.boot.reactive.websocket;

import io.sprout.boot.stats.WebSocketStats;
import io.sprout.engine.WebSocket;
import io.sprout.engine.WebSocketHandler;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.web.reactive.socket.CloseStatus;
import org.springframework.web.reactive.socket.HandshakeInfo;
import org.springframework.web.reactive.socket.WebSocketMessage;
import reactor.core.publisher.BaseSubscriber;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The engine's side of one reactive session: makes the {@link SproutWebSocketSession} when the connection opens,
 * subscribes the application's handler to it, and passes the engine's callbacks on. They come one at a time and in
 * order, on the engine's event loop when the connection has nothing else running (the handler is
 * {@link #nonBlocking()}: reactive code never blocks, as on Reactor Netty, whose event loop runs it too), else on a
 * worker; the application's {@code receive()} subscriber runs there too. When the application's
 * handling ends, the session is closed: normally ({@code 1000}) on completion, with {@code 1011} on an error, as on
 * Spring's other servers.
 */
final class SessionHandler implements WebSocketHandler {

    private static final System.Logger LOG = System.getLogger(SessionHandler.class.getName());

    private final org.springframework.web.reactive.socket.WebSocketHandler application;
    private final HandshakeInfo handshake;
    private final DataBufferFactory bufferFactory;
    private final String sessionId;
    private final long sendWindow;
    private final WebSocketStats stats;
    private SproutWebSocketSession session;
    /** What broke the connection, told before it closed. */
    private Throwable failure;

    /** @param stats where the session, its messages in and out, are counted for the meters */
    SessionHandler(org.springframework.web.reactive.socket.WebSocketHandler application, HandshakeInfo handshake,
            DataBufferFactory bufferFactory, String sessionId, long sendWindow, WebSocketStats stats) {
        this.application = application;
        this.handshake = handshake;
        this.bufferFactory = bufferFactory;
        this.sessionId = sessionId;
        this.sendWindow = sendWindow;
        this.stats = stats;
    }

    /** Also has the engine write the sends of other threads in the connection's turn, together: a broadcast's. */
    @Override
    public boolean nonBlocking() {
        return true;
    }

    @Override
    public void onOpen(WebSocket socket) {
        session = new SproutWebSocketSession(socket, sessionId, handshake, bufferFactory, sendWindow, stats);
        stats.opened();
        application.handle(session).subscribe(new BaseSubscriber<>() {
            @Override
            protected void hookOnComplete() {
                closeSession(CloseStatus.NORMAL);
            }

            @Override
            protected void hookOnError(Throwable error) {
                LOG.log(System.Logger.Level.DEBUG, "A WebSocket handler failed: closing with 1011", error);
                closeSession(CloseStatus.SERVER_ERROR);
            }
        });
    }

    /**
     * The closing handshake, where the connection may already be gone (the server stopping, the client leaving): then
     * the Close cannot be sent, which is no error of the application's.
     */
    private void closeSession(CloseStatus status) {
        session.close(status).subscribe(null, unsent -> LOG.log(System.Logger.Level.DEBUG,
                "The WebSocket's Close could not be sent: " + unsent));
    }

    /** The engine hands text over as bytes ({@link #onTextBytes}); this is for any other caller. */
    @Override
    public void onText(WebSocket socket, String message) {
        onTextBytes(socket, StandardCharsets.UTF_8.encode(message));
    }

    /** The engine has checked the bytes are UTF-8: they go into the message as they are, copied once. */
    @Override
    public void onTextBytes(WebSocket socket, ByteBuffer utf8) {
        stats.received();
        session.received(new WebSocketMessage(WebSocketMessage.Type.TEXT, copy(utf8)));
    }

    @Override
    public void onBinary(WebSocket socket, ByteBuffer message) {
        stats.received();
        session.received(new WebSocketMessage(WebSocketMessage.Type.BINARY, copy(message)));
    }

    @Override
    public void onPong(WebSocket socket, ByteBuffer payload) {
        session.received(new WebSocketMessage(WebSocketMessage.Type.PONG, copy(payload)));
    }

    @Override
    public void onError(WebSocket socket, Throwable error) {
        failure = error;
    }

    /** Also when the connection ended before it opened (the server stopping at once): then nothing was counted. */
    @Override
    public void onClose(WebSocket socket, int code, String reason) {
        if (session != null) {
            stats.closed();
            session.closed(new CloseStatus(code, reason), failure);
        }
    }

    /** The engine's buffer is only valid during its callback. */
    private org.springframework.core.io.buffer.DataBuffer copy(ByteBuffer bytes) {
        return bufferFactory.allocateBuffer(bytes.remaining()).write(bytes);
    }
}
