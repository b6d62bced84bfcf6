package io.sprout.sample.autobahn;

import java.io.IOException;
import java.nio.ByteBuffer;

import jakarta.websocket.CloseReason;
import jakarta.websocket.OnError;
import jakarta.websocket.OnMessage;
import jakarta.websocket.Session;
import jakarta.websocket.server.ServerEndpoint;

/**
 * {@code /autobahn/endpoint}: a Jakarta annotated echo of text and binary messages. Like a typical endpoint, its
 * {@code @OnError} closes the session with 1011 if it is still open. The container creates one instance per
 * session, hence public with the implicit constructor.
 */
@ServerEndpoint("/autobahn/endpoint")
public final class EchoEndpoint {

    @OnMessage
    public void onText(Session session, String message) throws IOException {
        session.getBasicRemote().sendText(message);
    }

    @OnMessage
    public void onBinary(Session session, ByteBuffer message) throws IOException {
        session.getBasicRemote().sendBinary(message);
    }

    @OnError
    public void onError(Session session, Throwable error) throws IOException {
        if (session.isOpen()) {
            session.close(new CloseReason(CloseReason.CloseCodes.UNEXPECTED_CONDITION, "echo failed"));
        }
    }

}
