package io.sprout.boot.wsapp;

import jakarta.websocket.EncodeException;
import jakarta.websocket.OnMessage;
import jakarta.websocket.OnOpen;
import jakarta.websocket.Session;
import jakarta.websocket.server.PathParam;
import jakarta.websocket.server.ServerEndpoint;

import java.io.IOException;

/**
 * A chat with rooms: a line sent to {@code /chat/{room}} goes to every session open in that room. A new session
 * hears {@code joined <room>} once it counts as open, so a client knows when broadcasts will reach it.
 */
@ServerEndpoint(value = "/chat/{room}", decoders = ChatMessageDecoder.class, encoders = ChatLineEncoder.class)
public class ChatEndpoint {

    @OnOpen
    public void open(Session session, @PathParam("room") String room) throws IOException {
        session.getBasicRemote().sendText("joined " + room);
    }

    @OnMessage
    public void message(ChatMessage message, Session session, @PathParam("room") String room)
            throws IOException, EncodeException {
        for (Session other : session.getOpenSessions()) {
            if (room.equals(other.getPathParameters().get("room")) && other.isOpen()) {
                other.getBasicRemote().sendObject(new ChatMessage("[" + room + "] " + message.from(),
                        message.text()));
            }
        }
    }
}
