package io.sprout.boot.websocket;

import io.sprout.boot.stats.WebSocketStats;
import io.sprout.boot.websocket.MessageKinds.Kind;
import io.sprout.engine.WebSocket;
import io.sprout.engine.WebSocketHandler;
import jakarta.websocket.CloseReason;
import jakarta.websocket.Endpoint;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The engine's {@link WebSocketHandler} for one Jakarta session: opens the session and the endpoint, hands
 * messages to the session's handlers and reports closes and failures to the endpoint. The engine calls it on a
 * worker, one callback at a time per connection and in order, which gives the endpoint the one-message-at-a-time
 * guarantee of Jakarta WebSocket 2.2 §5.1.
 */
final class SessionBridge implements WebSocketHandler {

    private static final Logger LOG = LoggerFactory.getLogger(SessionBridge.class);
    private static final int MAX_REASON_BYTES = 123;

    private final SproutSession session;
    private final Endpoint endpoint;
    private final WebSocketStats stats;
    private final ClassLoader classLoader;

    SessionBridge(SproutSession session, Endpoint endpoint, WebSocketStats stats, ClassLoader classLoader) {
        this.session = session;
        this.endpoint = endpoint;
        this.stats = stats;
        this.classLoader = classLoader;
    }

    @Override
    public void onOpen(WebSocket socket) {
        session.opened(socket);
        inApplication(() -> endpoint.onOpen(session, session.config()));
    }

    @Override
    public void onText(WebSocket socket, String message) {
        stats.received();
        inApplication(() -> {
            if (!session.handlers().text(message, session.codecs())) {
                cannotAccept("text");
            }
        });
    }

    @Override
    public void onBinary(WebSocket socket, ByteBuffer message) {
        stats.received();
        inApplication(() -> {
            if (!session.handlers().binary(message, session.codecs())) {
                cannotAccept("binary");
            }
        });
    }

    /** A partial text handler takes text as it arrives (Jakarta WebSocket 2.2 §2.1.3), with no message limit. */
    @Override
    public boolean textInParts() {
        return session.handlers().inParts(Kind.TEXT);
    }

    @Override
    public boolean binaryInParts() {
        return session.handlers().inParts(Kind.BINARY);
    }

    @Override
    public void onTextPart(WebSocket socket, String part, boolean last) {
        countWhole(last);
        inApplication(() -> session.handlers().textPart(part, last));
    }

    @Override
    public void onBinaryPart(WebSocket socket, ByteBuffer part, boolean last) {
        countWhole(last);
        inApplication(() -> session.handlers().binaryPart(part, last));
    }

    /** The meters count messages, not parts. */
    private void countWhole(boolean last) {
        if (last) {
            stats.received();
        }
    }

    @Override
    public void onPong(WebSocket socket, ByteBuffer payload) {
        inApplication(() -> session.handlers().pong(payload));
    }

    @Override
    public void onClose(WebSocket socket, int code, String reason) {
        session.closed();
        CloseReason closeReason = new CloseReason(CloseReason.CloseCodes.getCloseCode(code), shortened(reason));
        inApplication(() -> endpoint.onClose(session, closeReason));
    }

    @Override
    public void onError(WebSocket socket, Throwable failure) {
        withClassLoader(() -> endpoint.onError(session, failure));
    }

    /** Jakarta WebSocket 2.2 §2.1.5: a message no handler takes closes the session with 1003. */
    private void cannotAccept(String kind) {
        session.close(new CloseReason(CloseReason.CloseCodes.CANNOT_ACCEPT, "No handler for " + kind
                + " messages"));
    }

    /** Runs endpoint code; what it throws, checked or not, goes to the endpoint's {@code onError}. */
    private void inApplication(ApplicationCall call) {
        withClassLoader(() -> {
            try {
                call.run();
            } catch (Exception e) {
                try {
                    endpoint.onError(session, e);
                } catch (RuntimeException again) {
                    LOG.warn("The onError of WebSocket endpoint {} failed", endpoint.getClass().getName(), again);
                }
            }
        });
    }

    private void withClassLoader(Runnable task) {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(classLoader);
        try {
            task.run();
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /** A Close reason carries at most 123 bytes (RFC 6455 §5.5); {@link CloseReason} rejects longer ones. */
    static String shortened(String reason) {
        if (reason == null) {
            return "";
        }
        String value = reason;
        while (value.getBytes(StandardCharsets.UTF_8).length > MAX_REASON_BYTES) {
            value = value.substring(0, value.length() - 1);
        }
        return value;
    }

    @FunctionalInterface
    private interface ApplicationCall {
        void run() throws Exception;
    }
}
