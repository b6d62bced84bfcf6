package io.sprout.boot.wsapp;

import jakarta.websocket.OnMessage;
import jakarta.websocket.Session;
import jakarta.websocket.server.ServerEndpoint;

import java.io.IOException;

/** Takes text in parts and answers, at each message's last part, how many parts and characters it had. */
@ServerEndpoint("/endpoint-parts")
public class PartsEndpoint {

    private int parts;
    private long length;

    @OnMessage
    public void part(String part, boolean last, Session session) throws IOException {
        parts++;
        length += part.length();
        if (last) {
            session.getBasicRemote().sendText("parts=" + parts + " length=" + length);
            parts = 0;
            length = 0;
        }
    }
}
