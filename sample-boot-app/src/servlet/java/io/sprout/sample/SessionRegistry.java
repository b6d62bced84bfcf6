package io.sprout.sample;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.websocket.Session;

import org.springframework.stereotype.Component;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.adapter.NativeWebSocketSession;
import org.springframework.web.socket.handler.ConcurrentWebSocketSessionDecorator;
import org.springframework.web.socket.handler.SessionLimitExceededException;

/**
 * The WebSocket sessions of the Spring MVC build: a count of the echo sessions and the subscribers of
 * {@code /ws/broadcast}, each wrapped in a {@link ConcurrentWebSocketSessionDecorator} so that two broadcasts at once
 * never write to one session at the same time (Jakarta WebSocket forbids overlapping sends on a session). A
 * subscriber that cannot take a broadcast within {@value #SEND_TIME_LIMIT_SECONDS} s, or falls
 * {@value #BUFFER_LIMIT_BYTES} bytes behind, is closed by the decorator: a slow reader costs bounded memory.
 */
@Component
class SessionRegistry implements WebSocketSessions {

    static final int SEND_TIME_LIMIT_SECONDS = 10;

    static final int BUFFER_LIMIT_BYTES = 512 * 1024;

    private final AtomicInteger echoSessions = new AtomicInteger();

    private final Map<String, WebSocketSession> subscribers = new ConcurrentHashMap<>();

    /**
     * Sessions stay open until their client closes them, on every server alike: the idle-session benchmark holds
     * sessions that send nothing, and Jetty would otherwise close them after its default 30 s.
     */
    static void neverIdleOut(WebSocketSession session) {
        Session standard = (session instanceof NativeWebSocketSession nativeSession)
                ? nativeSession.getNativeSession(Session.class) : null;
        if (standard != null) {
            standard.setMaxIdleTimeout(0);
        }
    }

    void echoOpened() {
        this.echoSessions.incrementAndGet();
    }

    void echoClosed() {
        this.echoSessions.decrementAndGet();
    }

    void subscribe(WebSocketSession session) {
        this.subscribers.put(session.getId(), new ConcurrentWebSocketSessionDecorator(session,
                (int) TimeUnit.SECONDS.toMillis(SEND_TIME_LIMIT_SECONDS), BUFFER_LIMIT_BYTES));
    }

    void unsubscribe(WebSocketSession session) {
        this.subscribers.remove(session.getId());
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
        return Broadcast.fanOut(this.subscribers.values(), messages, size, TextMessage::new, SessionRegistry::send);
    }

    private static boolean send(WebSocketSession session, TextMessage text) {
        if (!session.isOpen()) {
            return false;
        }
        try {
            session.sendMessage(text);
            return true;
        }
        catch (IOException | IllegalStateException | SessionLimitExceededException ex) {
            // The client went away or fell too far behind (the decorator has closed it): one failed delivery,
            // reported in the answer; the broadcast goes on to the other sessions.
            return false;
        }
    }

}
