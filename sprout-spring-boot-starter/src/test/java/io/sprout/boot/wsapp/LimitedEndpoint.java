package io.sprout.boot.wsapp;

import jakarta.websocket.OnMessage;
import jakarta.websocket.server.ServerEndpoint;

/** Takes text messages of at most 16 bytes; a longer one closes the session with 1009. */
@ServerEndpoint("/limited")
public class LimitedEndpoint {

    @OnMessage(maxMessageSize = 16)
    public String echo(String message) {
        return message;
    }
}
