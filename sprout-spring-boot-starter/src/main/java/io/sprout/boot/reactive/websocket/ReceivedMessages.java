package io.sprout.boot.reactive.websocket;

import io.sprout.engine.WebSocket;
import org.springframework.http.server.reactive.AbstractListenerReadPublisher;
import org.springframework.web.reactive.socket.WebSocketMessage;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The session's {@code receive()}: messages as the engine delivers them, handed on as the subscriber asks. When its
 * demand runs out, reading the socket is suspended ({@link WebSocket#suspendReading()}), and it resumes with the
 * next request; only the messages of the read in progress then wait here. Until a subscriber comes, messages wait
 * here too, as on Spring's other servers, so that an application that never subscribes to {@code receive()} (it
 * only sends) still hears the client's Close; but once {@value #UNREQUESTED_LIMIT} bytes wait, reading is suspended
 * as well, so a client cannot fill the server's memory by sending to a session that does not read.
 */
final class ReceivedMessages extends AbstractListenerReadPublisher<WebSocketMessage> {

    /** The most bytes of messages waiting here before reading is suspended whatever the demand. */
    static final int UNREQUESTED_LIMIT = 1 << 20;

    private final WebSocket socket;
    private final Queue<WebSocketMessage> pending = new ConcurrentLinkedQueue<>();
    private final AtomicLong pendingBytes = new AtomicLong();

    ReceivedMessages(WebSocket socket, String logPrefix) {
        super(logPrefix);
        this.socket = socket;
    }

    /** A worker, in the engine's message callback. */
    void received(WebSocketMessage message) {
        pending.offer(message);
        if (pendingBytes.addAndGet(message.getPayload().readableByteCount()) >= UNREQUESTED_LIMIT) {
            socket.suspendReading();
        }
        onDataAvailable();
    }

    @Override
    protected void checkOnDataAvailable() {
        if (pendingBytes.get() < UNREQUESTED_LIMIT) {
            socket.resumeReading();
        }
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
        WebSocketMessage message = pending.poll();
        if (message != null) {
            int size = message.getPayload().readableByteCount();
            long left = pendingBytes.addAndGet(-size);
            if (left < UNREQUESTED_LIMIT && left + size >= UNREQUESTED_LIMIT) {
                // Below the limit again, and taken because there is demand: reading goes on.
                socket.resumeReading();
            }
        }
        return message;
    }

    /** Cancelled, or the session ended with messages nobody took: their buffers are released. */
    @Override
    protected void discardData() {
        WebSocketMessage message;
        while ((message = read()) != null) {
            message.release();
        }
    }
}
