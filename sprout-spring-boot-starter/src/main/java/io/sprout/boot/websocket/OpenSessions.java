package io.sprout.boot.websocket;

import io.sprout.boot.stats.WebSocketStats;
import jakarta.websocket.Session;
import jakarta.websocket.server.ServerEndpointConfig;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The container's open sessions by endpoint, for {@code Session.getOpenSessions()} and a graceful shutdown's wait;
 * each opening and closing is also counted in the {@link WebSocketStats} the meters read. Any thread.
 */
public final class OpenSessions {

    private final Map<ServerEndpointConfig, Set<Session>> byEndpoint = new ConcurrentHashMap<>();
    /** The container's own count, for {@link #whenNoneOpen}: the stats may also count other servers' sessions. */
    private final AtomicInteger open = new AtomicInteger();
    private final List<Runnable> whenNoneOpen = new ArrayList<>();
    private final WebSocketStats stats;

    OpenSessions(WebSocketStats stats) {
        this.stats = stats;
    }

    void opened(ServerEndpointConfig endpoint, Session session) {
        if (byEndpoint.computeIfAbsent(endpoint, key -> ConcurrentHashMap.newKeySet()).add(session)) {
            open.incrementAndGet();
            stats.opened();
        }
    }

    void closed(ServerEndpointConfig endpoint, Session session) {
        Set<Session> sessions = byEndpoint.get(endpoint);
        if (sessions != null && sessions.remove(session)) {
            stats.closed();
            if (open.decrementAndGet() == 0) {
                runWhenNoneOpen();
            }
        }
    }

    /**
     * Runs {@code task} once no session is open: at once on this thread if none is, else on the thread that
     * closes the last one. A graceful shutdown waits so for the sessions it asked to close.
     */
    public void whenNoneOpen(Runnable task) {
        synchronized (whenNoneOpen) {
            if (open.get() > 0) {
                whenNoneOpen.add(task);
                return;
            }
        }
        task.run();
    }

    private void runWhenNoneOpen() {
        List<Runnable> tasks;
        synchronized (whenNoneOpen) {
            if (open.get() > 0) {
                return;
            }
            tasks = List.copyOf(whenNoneOpen);
            whenNoneOpen.clear();
        }
        tasks.forEach(Runnable::run);
    }

    /** The open sessions of one endpoint (a snapshot). */
    Set<Session> of(ServerEndpointConfig endpoint) {
        Set<Session> sessions = byEndpoint.get(endpoint);
        return sessions == null ? Set.of() : Set.copyOf(sessions);
    }

    /** Every open session (a snapshot), e.g. to close them. */
    List<Session> all() {
        List<Session> all = new ArrayList<>();
        byEndpoint.values().forEach(all::addAll);
        return all;
    }
}
