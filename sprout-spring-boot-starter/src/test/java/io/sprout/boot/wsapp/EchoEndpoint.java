package io.sprout.boot.wsapp;

import jakarta.websocket.CloseReason;
import jakarta.websocket.OnError;
import jakarta.websocket.OnMessage;
import jakarta.websocket.Session;
import jakarta.websocket.server.ServerEndpoint;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * An echo as users write one: text and binary back as they came, and an {@code @OnError} that closes the session
 * with 1011 if it is still open. Two commands: {@code limits?} answers the session's limits, {@code lower} lowers
 * its text limit to 1,000 bytes.
 */
@ServerEndpoint("/endpoint-echo")
public class EchoEndpoint {

    @OnMessage
    public String text(String message, Session session) {
        return switch (message) {
            case "limits?" -> "text=" + session.getMaxTextMessageBufferSize() + " binary="
                    + session.getMaxBinaryMessageBufferSize() + " idle=" + session.getMaxIdleTimeout()
                    + " asyncSendTimeout=" + session.getAsyncRemote().getSendTimeout();
            case "lower" -> {
                session.setMaxTextMessageBufferSize(1_000);
                yield "lowered";
            }
            default -> message;
        };
    }

    @OnMessage
    public ByteBuffer binary(ByteBuffer message) {
        return message;
    }

    @OnError
    public void failed(Session session, Throwable failure) throws IOException {
        if (session.isOpen()) {
            session.close(new CloseReason(CloseReason.CloseCodes.UNEXPECTED_CONDITION, "failed"));
        }
    }
}
