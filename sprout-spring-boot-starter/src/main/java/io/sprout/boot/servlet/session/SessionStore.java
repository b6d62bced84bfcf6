package io.sprout.boot.servlet.session;

import jakarta.servlet.ServletContext;

import java.security.SecureRandom;
import java.time.Clock;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The in-memory sessions of one context. Expiry is checked on every lookup, and {@link #evictExpired()} (run
 * periodically by the web server) drops sessions nobody asks for any more.
 *
 * <p>Thread-safe: any worker may create, find or invalidate sessions.
 */
public final class SessionStore {

    private final Map<String, SproutSession> sessions = new ConcurrentHashMap<>();
    private final SecureRandom random = new SecureRandom();
    private final ServletContext context;
    private final SessionEvents events;
    private final Clock clock;
    private volatile int defaultMaxInactiveSeconds;

    public SessionStore(ServletContext context, SessionEvents events, Clock clock, int defaultMaxInactiveSeconds) {
        this.context = context;
        this.events = events;
        this.clock = clock;
        this.defaultMaxInactiveSeconds = defaultMaxInactiveSeconds;
    }

    /** Seconds of inactivity before a new session expires; zero or less means never. */
    public void defaultMaxInactiveSeconds(int seconds) {
        defaultMaxInactiveSeconds = seconds;
    }

    public int defaultMaxInactiveSeconds() {
        return defaultMaxInactiveSeconds;
    }

    public SproutSession create() {
        SproutSession session = new SproutSession(this, newId(), clock.millis(), defaultMaxInactiveSeconds);
        sessions.put(session.getId(), session);
        events.created(session);
        return session;
    }

    /** The valid session with this id, marked as accessed now; {@code null} when unknown or expired. */
    public SproutSession find(String id) {
        if (id == null) {
            return null;
        }
        SproutSession session = sessions.get(id);
        if (session == null) {
            return null;
        }
        long now = clock.millis();
        if (session.expiredAt(now)) {
            session.invalidate();
            return null;
        }
        session.access(now);
        return session;
    }

    /** Whether a valid session has this id, without marking it accessed. */
    public boolean exists(String id) {
        SproutSession session = id == null ? null : sessions.get(id);
        return session != null && session.isValid() && !session.expiredAt(clock.millis());
    }

    public String changeId(SproutSession session) {
        String oldId = session.getId();
        String newId = newId();
        sessions.remove(oldId);
        session.id(newId);
        sessions.put(newId, session);
        events.idChanged(session, oldId);
        return newId;
    }

    public int size() {
        return sessions.size();
    }

    /** Invalidates every session whose inactivity interval has passed. */
    public void evictExpired() {
        long now = clock.millis();
        for (SproutSession session : sessions.values()) {
            if (session.expiredAt(now)) {
                session.invalidate();
            }
        }
    }

    /** Invalidates every session; called when the context is destroyed. */
    public void invalidateAll() {
        sessions.values().forEach(SproutSession::invalidateQuietly);
    }

    void removed(SproutSession session) {
        sessions.remove(session.getId(), session);
        events.destroyed(session);
    }

    ServletContext context() {
        return context;
    }

    SessionEvents events() {
        return events;
    }

    long now() {
        return clock.millis();
    }

    private String newId() {
        byte[] bytes = new byte[16];
        random.nextBytes(bytes);
        return HexFormat.of().withUpperCase().formatHex(bytes);
    }
}
