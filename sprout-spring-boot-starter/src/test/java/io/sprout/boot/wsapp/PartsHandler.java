package io.sprout.boot.wsapp;

import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.handler.TextWebSocketHandler;

/** A Spring handler taking text in parts: answers, at each message's last part, its parts and characters. */
public class PartsHandler extends TextWebSocketHandler {

    private static final String PARTS = "parts";
    private static final String LENGTH = "length";

    @Override
    public boolean supportsPartialMessages() {
        return true;
    }

    @Override
    protected void handleTextMessage(WebSocketSession session, TextMessage message) throws Exception {
        var attributes = session.getAttributes();
        int parts = (int) attributes.getOrDefault(PARTS, 0) + 1;
        long length = (long) attributes.getOrDefault(LENGTH, 0L) + message.getPayloadLength();
        if (message.isLast()) {
            session.sendMessage(new TextMessage("parts=" + parts + " length=" + length));
            attributes.remove(PARTS);
            attributes.remove(LENGTH);
        } else {
            attributes.put(PARTS, parts);
            attributes.put(LENGTH, length);
        }
    }
}
