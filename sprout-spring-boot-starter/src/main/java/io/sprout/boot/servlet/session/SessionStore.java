package io.sprout.boot.servlet.session;

import jakarta.servlet.ServletContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The in-memory sessions of one context. Expiry is checked on every lookup, and {@link #evictExpired()} (run
 * periodically by the web server) drops sessions nobody asks for any more. With persistence, {@link #persist}
 * hands the live sessions to a file when the context ends and {@link #restore} takes them back in the next one.
 *
 * <p>Thread-safe: any worker may create, find or invalidate sessions.
 */
public final class SessionStore {

    private static final Logger LOG = LoggerFactory.getLogger(SessionStore.class);

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

    /**
     * Writes every live session to the file and lets go of them without destroying them: they carry on in the next
     * context, so listeners hear {@code sessionWillPassivate}, not {@code sessionDestroyed} (as with Tomcat's
     * {@code StandardManager}). Called when the context is destroyed.
     *
     * @throws IOException when the file cannot be written; the sessions are then still here
     */
    public void persist(Path file) throws IOException {
        long now = clock.millis();
        List<SproutSession> live = new ArrayList<>();
        for (SproutSession session : sessions.values()) {
            if (session.isValid() && !session.expiredAt(now)) {
                live.add(session);
            }
        }
        live.forEach(SproutSession::passivate);
        SessionFile.write(file, live.stream().map(SproutSession::state).toList());
        sessions.clear();
        LOG.debug("Persisted {} sessions to {}", live.size(), file);
    }

    /**
     * Takes back the sessions a previous context persisted to the file, except those that expired meanwhile, and
     * deletes the file. Attribute classes are loaded with {@code loader}. A missing file restores nothing; an
     * unreadable one is reported and deleted.
     *
     * @return how many sessions were restored
     */
    public int restore(Path file, ClassLoader loader) {
        if (!Files.exists(file)) {
            return 0;
        }
        List<SessionState> states;
        try {
            states = SessionFile.read(file, loader);
        } catch (IOException e) {
            LOG.warn("Could not restore the sessions persisted in {}: {}", file, e.toString());
            return 0;
        } finally {
            delete(file);
        }
        long now = clock.millis();
        int restored = 0;
        for (SessionState state : states) {
            SproutSession session = SproutSession.restored(this, state);
            if (!session.expiredAt(now)) {
                sessions.put(session.getId(), session);
                session.activate();
                restored++;
            }
        }
        LOG.debug("Restored {} of {} persisted sessions from {}", restored, states.size(), file);
        return restored;
    }

    private static void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            LOG.warn("Could not delete the session file {}; its sessions may be restored twice", file, e);
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
