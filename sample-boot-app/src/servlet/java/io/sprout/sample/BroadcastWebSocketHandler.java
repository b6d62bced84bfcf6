package io.sprout.sample;

import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.handler.AbstractWebSocketHandler;

/**
 * {@code /ws/broadcast} on Spring MVC: a session subscribes when it opens and leaves when it closes; what it sends is
 * ignored. Messages reach it only through {@code POST /benchmark/broadcast}.
 */
final class BroadcastWebSocketHandler extends AbstractWebSocketHandler {

    private final SessionRegistry registry;

    BroadcastWebSocketHandler(SessionRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void afterConnectionEstablished(WebSocketSession session) {
        SessionRegistry.neverIdleOut(session);
        this.registry.subscribe(session);
    }

    @Override
    public void afterConnectionClosed(WebSocketSession session, CloseStatus status) {
        this.registry.unsubscribe(session);
    }

}
