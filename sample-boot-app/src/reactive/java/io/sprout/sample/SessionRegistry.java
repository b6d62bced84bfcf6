package io.sprout.sample;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import org.springframework.stereotype.Component;

/**
 * The WebSocket sessions of the WebFlux build: a count of the echo sessions and the {@link BroadcastSubscriber} of
 * every {@code /ws/broadcast} session. A broadcast only queues each message for each subscriber; the server writes
 * them as each session's send takes them (Reactor Netty on the sessions' event loops).
 */
@Component
class SessionRegistry implements WebSocketSessions {

    private final AtomicInteger echoSessions = new AtomicInteger();

    private final Map<String, BroadcastSubscriber> subscribers = new ConcurrentHashMap<>();

    void echoOpened() {
        this.echoSessions.incrementAndGet();
    }

    void echoClosed() {
        this.echoSessions.decrementAndGet();
    }

    BroadcastSubscriber subscribe(String sessionId) {
        BroadcastSubscriber subscriber = new BroadcastSubscriber();
        this.subscribers.put(sessionId, subscriber);
        return subscriber;
    }

    void unsubscribe(String sessionId) {
        this.subscribers.remove(sessionId);
    }

    @Override
    public int open() {
        return this.echoSessions.get() + this.subscribers.size();
    }

    @Override
    public int subscribers() {
        return this.subscribers.size();
    }

    @Override
    public BroadcastResult broadcast(int messages, int size) {
        return Broadcast.fanOut(this.subscribers.values(), messages, size, Function.identity(),
                BroadcastSubscriber::offer);
    }

}
