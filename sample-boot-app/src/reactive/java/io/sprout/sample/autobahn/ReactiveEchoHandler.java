package io.sprout.sample.autobahn;

import reactor.core.publisher.Mono;

import org.springframework.web.reactive.socket.WebSocketHandler;
import org.springframework.web.reactive.socket.WebSocketMessage;
import org.springframework.web.reactive.socket.WebSocketSession;

/**
 * {@code /autobahn/reactive}: every text and binary message goes back as it came, of the same type and with the same
 * bytes, so a text message the server let through with invalid UTF-8 would come back invalid and fail its case
 * instead of being mended by a decode here. The payload is retained, because the server may release a received
 * buffer once the message has been handled, and the send releases it once written. Pings are the server's to answer,
 * as on every WebFlux server; pings and pongs that reach the handler are dropped.
 */
final class ReactiveEchoHandler implements WebSocketHandler {

    @Override
    public Mono<Void> handle(WebSocketSession session) {
        return session.send(session.receive().mapNotNull(ReactiveEchoHandler::echo));
    }

    private static WebSocketMessage echo(WebSocketMessage message) {
        return switch (message.getType()) {
            case TEXT, BINARY -> new WebSocketMessage(message.getType(), message.retain().getPayload());
            case PING, PONG -> null;
        };
    }

}
