package io.sprout.boot.wsapp;

import jakarta.websocket.OnMessage;
import jakarta.websocket.PongMessage;
import jakarta.websocket.SendResult;
import jakarta.websocket.Session;
import jakarta.websocket.server.ServerEndpoint;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** Commands that exercise the session API: streamed sends, pings, asynchronous sends and the idle timeout. */
@ServerEndpoint("/features")
public class FeaturesEndpoint {

    @OnMessage
    public void command(String command, Session session) throws IOException {
        switch (command) {
            case "writer" -> {
                try (Writer writer = session.getBasicRemote().getSendWriter()) {
                    for (int i = 0; i < 2000; i++) {
                        writer.write("0123456789");
                    }
                }
            }
            case "stream" -> {
                try (OutputStream out = session.getBasicRemote().getSendStream()) {
                    out.write(new byte[20_000]);
                }
            }
            case "ping" -> session.getBasicRemote().sendPing(ByteBuffer.wrap("abc".getBytes(StandardCharsets.UTF_8)));
            case "async" -> session.getAsyncRemote().sendText("async", result -> reply(session, result));
            case "idle" -> session.setMaxIdleTimeout(200);
            default -> session.getBasicRemote().sendText("unknown " + command);
        }
    }

    @OnMessage
    public String pong(PongMessage pong) {
        return "pong " + pong.getApplicationData().remaining();
    }

    private static void reply(Session session, SendResult result) {
        session.getAsyncRemote().sendText("sent ok=" + result.isOK());
    }
}
