package io.sprout.boot.wsapp;

import jakarta.websocket.Endpoint;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.HandshakeResponse;
import jakarta.websocket.MessageHandler;
import jakarta.websocket.Session;
import jakarta.websocket.server.HandshakeRequest;
import jakarta.websocket.server.ServerEndpointConfig;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * A programmatic endpoint at {@code /programmatic/{id}}, deployed through a {@link ServerEndpointConfig} bean: its
 * configurator adds a handshake header and passes a request header on to the session; text messages are answered
 * with what the session knows about itself, binary ones (taken in parts) with their size.
 */
public class ProgrammaticEndpoint extends Endpoint {

    public static ServerEndpointConfig config() {
        return ServerEndpointConfig.Builder.create(ProgrammaticEndpoint.class, "/programmatic/{id}")
                .subprotocols(List.of("v2.proto", "v1.proto"))
                .configurator(new ServerEndpointConfig.Configurator() {
                    @Override
                    public void modifyHandshake(ServerEndpointConfig config, HandshakeRequest request,
                            HandshakeResponse response) {
                        response.getHeaders().put("X-Handshake", List.of("seen"));
                        config.getUserProperties().put("agent",
                                String.valueOf(request.getHeaders().get("X-Agent")));
                    }
                })
                .build();
    }

    @Override
    public void onOpen(Session session, EndpointConfig config) {
        session.addMessageHandler(String.class, text -> reply(session, "id=" + session.getPathParameters().get("id")
                + " query=" + session.getQueryString() + " param=" + session.getRequestParameterMap().get("q")
                + " protocol=" + session.getNegotiatedSubprotocol() + " agent="
                + config.getUserProperties().get("agent") + " uri=" + session.getRequestURI().getPath()
                + " text=" + text));
        session.addMessageHandler(ByteBuffer.class, (MessageHandler.Partial<ByteBuffer>) (part, last) ->
                reply(session, "binary " + part.remaining() + " bytes, last=" + last));
        try {
            session.addMessageHandler(String.class, text -> reply(session, "second"));
        } catch (IllegalStateException expected) {
            session.getUserProperties().put("second", "refused");
        }
    }

    private static void reply(Session session, String text) {
        try {
            session.getBasicRemote().sendText(text + " second=" + session.getUserProperties().get("second"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
