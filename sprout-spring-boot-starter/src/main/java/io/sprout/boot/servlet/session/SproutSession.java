package io.sprout.boot.servlet.session;

import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpSession;
import jakarta.servlet.http.HttpSessionActivationListener;
import jakarta.servlet.http.HttpSessionBindingEvent;
import jakarta.servlet.http.HttpSessionBindingListener;
import jakarta.servlet.http.HttpSessionEvent;

import java.util.Collections;
import java.util.Enumeration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** One in-memory {@link HttpSession}. Thread-safe: concurrent requests of one client share it. */
public final class SproutSession implements HttpSession {

    private final SessionStore store;
    private final long creationTime;
    private final Map<String, Object> attributes = new ConcurrentHashMap<>();
    private volatile String id;
    private volatile long lastAccessedTime;
    private volatile long thisAccessedTime;
    private volatile int maxInactiveSeconds;
    private volatile boolean valid = true;
    private volatile boolean fresh = true;

    SproutSession(SessionStore store, String id, long now, int maxInactiveSeconds) {
        this.store = store;
        this.id = id;
        this.creationTime = now;
        this.lastAccessedTime = now;
        this.thisAccessedTime = now;
        this.maxInactiveSeconds = maxInactiveSeconds;
    }

    /** A session brought back from a session file; not announced as created (it was, in an earlier context). */
    static SproutSession restored(SessionStore store, SessionState state) {
        SproutSession session = new SproutSession(store, state.id(), state.creationTime(),
                state.maxInactiveSeconds());
        session.lastAccessedTime = state.lastAccessedTime();
        session.thisAccessedTime = state.thisAccessedTime();
        session.fresh = state.fresh();
        session.attributes.putAll(state.attributes());
        return session;
    }

    SessionState state() {
        return new SessionState(id, creationTime, lastAccessedTime, thisAccessedTime, maxInactiveSeconds, fresh,
                attributes);
    }

    /** Tells attribute values that care ({@code HttpSessionActivationListener}) that the session is being stored. */
    void passivate() {
        HttpSessionEvent event = new HttpSessionEvent(this);
        for (Object value : attributes.values()) {
            if (value instanceof HttpSessionActivationListener listener) {
                listener.sessionWillPassivate(event);
            }
        }
    }

    /** Tells attribute values that care that the session has been restored. */
    void activate() {
        HttpSessionEvent event = new HttpSessionEvent(this);
        for (Object value : attributes.values()) {
            if (value instanceof HttpSessionActivationListener listener) {
                listener.sessionDidActivate(event);
            }
        }
    }

    void access(long now) {
        lastAccessedTime = thisAccessedTime;
        thisAccessedTime = now;
        fresh = false;
    }

    boolean expiredAt(long now) {
        int seconds = maxInactiveSeconds;
        return seconds > 0 && now - thisAccessedTime >= seconds * 1000L;
    }

    void id(String newId) {
        id = newId;
    }

    public boolean isValid() {
        return valid;
    }

    @Override
    public long getCreationTime() {
        checkValid();
        return creationTime;
    }

    @Override
    public String getId() {
        return id;
    }

    @Override
    public long getLastAccessedTime() {
        checkValid();
        return lastAccessedTime;
    }

    @Override
    public ServletContext getServletContext() {
        return store.context();
    }

    @Override
    public void setMaxInactiveInterval(int interval) {
        maxInactiveSeconds = interval;
    }

    @Override
    public int getMaxInactiveInterval() {
        return maxInactiveSeconds;
    }

    @Override
    public Object getAttribute(String name) {
        checkValid();
        return attributes.get(name);
    }

    @Override
    public Enumeration<String> getAttributeNames() {
        checkValid();
        return Collections.enumeration(attributes.keySet());
    }

    @Override
    public void setAttribute(String name, Object value) {
        checkValid();
        if (value == null) {
            removeAttribute(name);
            return;
        }
        if (value instanceof HttpSessionBindingListener listener) {
            listener.valueBound(new HttpSessionBindingEvent(this, name, value));
        }
        Object old = attributes.put(name, value);
        if (old != null && old != value && old instanceof HttpSessionBindingListener listener) {
            listener.valueUnbound(new HttpSessionBindingEvent(this, name, old));
        }
        if (old == null) {
            store.events().attributeAdded(this, name, value);
        } else {
            store.events().attributeReplaced(this, name, old);
        }
    }

    @Override
    public void removeAttribute(String name) {
        checkValid();
        Object old = attributes.remove(name);
        if (old == null) {
            return;
        }
        if (old instanceof HttpSessionBindingListener listener) {
            listener.valueUnbound(new HttpSessionBindingEvent(this, name, old));
        }
        store.events().attributeRemoved(this, name, old);
    }

    @Override
    public void invalidate() {
        checkValid();
        invalidateQuietly();
    }

    void invalidateQuietly() {
        synchronized (this) {
            if (!valid) {
                return;
            }
            valid = false;
        }
        // Listeners see the session while it is being destroyed (Servlet spec), so attributes go last.
        store.removed(this);
        for (String name : attributes.keySet()) {
            Object old = attributes.remove(name);
            if (old instanceof HttpSessionBindingListener listener) {
                listener.valueUnbound(new HttpSessionBindingEvent(this, name, old));
            }
            if (old != null) {
                store.events().attributeRemoved(this, name, old);
            }
        }
    }

    @Override
    public boolean isNew() {
        checkValid();
        return fresh;
    }

    private void checkValid() {
        if (!valid) {
            throw new IllegalStateException("Session " + id + " has been invalidated");
        }
    }
}
