package io.sprout.sample;

import org.springframework.web.socket.BinaryMessage;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.handler.AbstractWebSocketHandler;

/**
 * {@code /ws/echo} on Spring MVC: sends every text and binary message back on the thread that delivered it. The
 * container delivers one message at a time per session, so the sends of one session never overlap.
 */
final class EchoWebSocketHandler extends AbstractWebSocketHandler {

    private final SessionRegistry registry;

    EchoWebSocketHandler(SessionRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void afterConnectionEstablished(WebSocketSession session) {
        SessionRegistry.neverIdleOut(session);
        this.registry.echoOpened();
    }

    @Override
    protected void handleTextMessage(WebSocketSession session, TextMessage message) throws Exception {
        session.sendMessage(message);
    }

    @Override
    protected void handleBinaryMessage(WebSocketSession session, BinaryMessage message) throws Exception {
        session.sendMessage(message);
    }

    @Override
    public void afterConnectionClosed(WebSocketSession session, CloseStatus status) {
        this.registry.echoClosed();
    }

}
