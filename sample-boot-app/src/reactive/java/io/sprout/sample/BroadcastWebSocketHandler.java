package io.sprout.sample;

import reactor.core.publisher.Mono;

import org.springframework.web.reactive.socket.WebSocketHandler;
import org.springframework.web.reactive.socket.WebSocketSession;

/**
 * {@code /ws/broadcast} on WebFlux: a session subscribes when it opens; its outbound stream is its
 * {@link BroadcastSubscriber}'s queue, fed by {@code POST /benchmark/broadcast}. What the client sends is ignored;
 * when the client closes, the subscriber leaves the registry and its queue completes, which ends the session.
 */
final class BroadcastWebSocketHandler implements WebSocketHandler {

    private final SessionRegistry registry;

    BroadcastWebSocketHandler(SessionRegistry registry) {
        this.registry = registry;
    }

    @Override
    public Mono<Void> handle(WebSocketSession session) {
        BroadcastSubscriber subscriber = this.registry.subscribe(session.getId());
        Mono<Void> outbound = session.send(subscriber.messages().map(session::textMessage));
        Mono<Void> inbound = session.receive().then().doFinally((signal) -> {
            this.registry.unsubscribe(session.getId());
            subscriber.complete();
        });
        return Mono.when(outbound, inbound).doFinally((signal) -> this.registry.unsubscribe(session.getId()));
    }

}
