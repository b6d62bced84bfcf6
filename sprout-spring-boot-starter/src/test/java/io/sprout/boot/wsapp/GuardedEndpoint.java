package io.sprout.boot.wsapp;

import jakarta.websocket.OnMessage;
import jakarta.websocket.server.ServerEndpoint;
import jakarta.websocket.server.ServerEndpointConfig;

/** Accepts only pages from {@code http://allowed.example}; echoes text by returning it. */
@ServerEndpoint(value = "/guarded", configurator = GuardedEndpoint.OriginCheck.class)
public class GuardedEndpoint {

    public static class OriginCheck extends ServerEndpointConfig.Configurator {
        @Override
        public boolean checkOrigin(String origin) {
            return "http://allowed.example".equals(origin);
        }
    }

    @OnMessage
    public String echo(String message) {
        return message;
    }
}
