package io.sprout.boot.wsapp;

import jakarta.websocket.Session;
import org.springframework.web.socket.BinaryMessage;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.adapter.standard.StandardWebSocketSession;
import org.springframework.web.socket.handler.AbstractWebSocketHandler;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * A Spring echo as users write one: text and binary back as they came, and a {@code handleTransportError} that
 * closes the session with {@link CloseStatus#SERVER_ERROR} if it is still open. It notes whether the session was
 * open when the error arrived. {@code limits?} answers the session's limits.
 */
public class UserEchoHandler extends AbstractWebSocketHandler {

    private final BlockingQueue<String> transportErrors = new LinkedBlockingQueue<>();

    /** One entry per transport error: {@code open=true|false}, the session's state when it was reported. */
    public BlockingQueue<String> transportErrors() {
        return transportErrors;
    }

    @Override
    protected void handleTextMessage(WebSocketSession session, TextMessage message) throws Exception {
        if (message.getPayload().equals("limits?")) {
            Session jakarta = ((StandardWebSocketSession) session).getNativeSession(Session.class);
            session.sendMessage(new TextMessage("text=" + session.getTextMessageSizeLimit() + " binary="
                    + session.getBinaryMessageSizeLimit() + " idle=" + jakarta.getMaxIdleTimeout()));
            return;
        }
        session.sendMessage(message);
    }

    @Override
    protected void handleBinaryMessage(WebSocketSession session, BinaryMessage message) throws Exception {
        session.sendMessage(message);
    }

    @Override
    public void handleTransportError(WebSocketSession session, Throwable exception) throws Exception {
        transportErrors.add("open=" + session.isOpen());
        if (session.isOpen()) {
            session.close(CloseStatus.SERVER_ERROR);
        }
    }
}
