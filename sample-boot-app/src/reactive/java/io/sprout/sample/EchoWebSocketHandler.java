package io.sprout.sample;

import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.web.reactive.socket.WebSocketHandler;
import org.springframework.web.reactive.socket.WebSocketMessage;
import org.springframework.web.reactive.socket.WebSocketSession;

/**
 * {@code /ws/echo} on WebFlux: every text and binary message goes back, in order, on the thread that received it
 * (Reactor Netty's event loop, or the worker of Sprout's session). Pings are answered by the server itself and pongs
 * are dropped. The payload is copied because the received buffer is released once the message has been handled.
 */
final class EchoWebSocketHandler implements WebSocketHandler {

    private final SessionRegistry registry;

    EchoWebSocketHandler(SessionRegistry registry) {
        this.registry = registry;
    }

    @Override
    public Mono<Void> handle(WebSocketSession session) {
        this.registry.echoOpened();
        return session.send(session.receive().mapNotNull((message) -> echo(session, message)))
            .doFinally((signal) -> this.registry.echoClosed());
    }

    private static WebSocketMessage echo(WebSocketSession session, WebSocketMessage message) {
        return switch (message.getType()) {
            case TEXT -> session.textMessage(message.getPayloadAsText());
            case BINARY -> {
                DataBuffer payload = message.getPayload();
                byte[] bytes = new byte[payload.readableByteCount()];
                payload.read(bytes);
                yield session.binaryMessage((factory) -> factory.wrap(bytes));
            }
            case PING, PONG -> null;
        };
    }

}
