package io.sprout.boot.websocket.annotated;

import jakarta.websocket.CloseReason;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.Session;

/**
 * What an annotated method may be called with: one call's worth of values, of which each parameter takes one.
 *
 * @param session the session
 * @param config the endpoint configuration ({@code @OnOpen})
 * @param closeReason why the session closed ({@code @OnClose})
 * @param failure what went wrong ({@code @OnError})
 * @param message the message ({@code @OnMessage})
 * @param last whether the message is the last part ({@code @OnMessage} with a {@code boolean})
 */
record Invocation(Session session, EndpointConfig config, CloseReason closeReason, Throwable failure,
        Object message, boolean last) {

    static Invocation open(Session session, EndpointConfig config) {
        return new Invocation(session, config, null, null, null, true);
    }

    static Invocation close(Session session, CloseReason reason) {
        return new Invocation(session, null, reason, null, null, true);
    }

    static Invocation error(Session session, Throwable failure) {
        return new Invocation(session, null, null, failure, null, true);
    }

    static Invocation message(Session session, Object message, boolean last) {
        return new Invocation(session, null, null, null, message, last);
    }
}
