package io.sprout.boot.websocket.annotated;

import jakarta.websocket.CloseReason;
import jakarta.websocket.Endpoint;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.MessageHandler;
import jakarta.websocket.Session;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;

/**
 * One annotated endpoint instance as a programmatic {@link Endpoint}: on open it registers a message handler per
 * {@code @OnMessage} method, then calls {@code @OnOpen}; a message method's return value is sent back with
 * {@code sendObject}; whatever a method throws goes to {@code @OnError}.
 */
final class AnnotatedEndpoint extends Endpoint {

    private static final Logger LOG = LoggerFactory.getLogger(AnnotatedEndpoint.class);

    private final AnnotatedEndpointModel model;
    private final Object instance;

    AnnotatedEndpoint(AnnotatedEndpointModel model, Object instance) {
        this.model = model;
        this.instance = instance;
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public void onOpen(Session session, EndpointConfig config) {
        for (MessageMethod message : model.messages()) {
            if (message.partial()) {
                session.addMessageHandler((Class) message.type(),
                        (MessageHandler.Partial<Object>) (part, last) -> deliver(session, message, part, last));
            } else {
                session.addMessageHandler((Class) message.type(),
                        (MessageHandler.Whole<Object>) value -> deliver(session, message, value, true));
            }
            if (message.maxMessageSize() > 0) {
                int limit = (int) Math.min(message.maxMessageSize(), Integer.MAX_VALUE - 8);
                switch (message.kind()) {
                    case TEXT -> session.setMaxTextMessageBufferSize(limit);
                    case BINARY -> session.setMaxBinaryMessageBufferSize(limit);
                    case PONG -> {
                        // Pongs carry at most 125 bytes: a limit has nothing to do.
                    }
                }
            }
        }
        call(model.onOpen(), session, Invocation.open(session, config));
    }

    @Override
    public void onClose(Session session, CloseReason closeReason) {
        call(model.onClose(), session, Invocation.close(session, closeReason));
    }

    @Override
    public void onError(Session session, Throwable failure) {
        if (model.onError() == null) {
            if (failure instanceof IOException) {
                // Typically the client went away without a closing handshake: normal, not an error (STYLE.md).
                LOG.debug("WebSocket session {} of {} lost its connection", session.getId(),
                        model.type().getName(), failure);
            } else {
                LOG.warn("WebSocket endpoint {} (session {}) failed and has no @OnError method",
                        model.type().getName(), session.getId(), failure);
            }
            return;
        }
        try {
            model.onError().invoke(instance, Invocation.error(session, failure));
        } catch (InvocationTargetException e) {
            LOG.warn("The @OnError method of WebSocket endpoint {} failed", model.type().getName(), e.getCause());
        } catch (Exception e) {
            LOG.warn("Cannot call the @OnError method of WebSocket endpoint {}", model.type().getName(), e);
        }
    }

    private void deliver(Session session, MessageMethod message, Object value, boolean last) {
        try {
            Object result = message.bound().invoke(instance, Invocation.message(session, value, last));
            if (result != null && message.bound().method().getReturnType() != void.class) {
                session.getBasicRemote().sendObject(result);
            }
        } catch (InvocationTargetException e) {
            onError(session, e.getCause());
        } catch (Exception e) {
            onError(session, e);
        }
    }

    private void call(BoundMethod method, Session session, Invocation invocation) {
        if (method == null) {
            return;
        }
        try {
            method.invoke(instance, invocation);
        } catch (InvocationTargetException e) {
            onError(session, e.getCause());
        } catch (Exception e) {
            onError(session, e);
        }
    }
}
