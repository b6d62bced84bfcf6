package io.sprout.boot.reactive.websocket;

import io.sprout.engine.WebSocket;
import org.springframework.http.server.reactive.AbstractListenerReadPublisher;
import org.springframework.web.reactive.socket.WebSocketMessage;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The session's {@code receive()}: messages as the engine delivers them, handed on as the subscriber asks. When its
 * demand runs out, reading the socket is suspended ({@link WebSocket#suspendReading()}), and it resumes with the
 * next request; only the messages of the read in progress then wait here. Until a subscriber comes, messages wait
 * here too, as on Spring's other servers: an application that never subscribes to {@code receive()} still hears
 * the client's Close.
 */
final class ReceivedMessages extends AbstractListenerReadPublisher<WebSocketMessage> {

    private final WebSocket socket;
    private final Queue<WebSocketMessage> pending = new ConcurrentLinkedQueue<>();

    ReceivedMessages(WebSocket socket, String logPrefix) {
        super(logPrefix);
        this.socket = socket;
    }

    /** A worker, in the engine's message callback. */
    void received(WebSocketMessage message) {
        pending.offer(message);
        onDataAvailable();
    }

    @Override
    protected void checkOnDataAvailable() {
        socket.resumeReading();
        if (!pending.isEmpty()) {
            onDataAvailable();
        }
    }

    @Override
    protected void readingPaused() {
        socket.suspendReading();
    }

    @Override
    protected WebSocketMessage read() {
        return pending.poll();
    }

    /** Cancelled, or the session ended with messages nobody took: their buffers are released. */
    @Override
    protected void discardData() {
        WebSocketMessage message;
        while ((message = pending.poll()) != null) {
            message.release();
        }
    }
}
