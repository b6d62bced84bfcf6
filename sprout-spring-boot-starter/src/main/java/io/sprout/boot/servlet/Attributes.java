package io.sprout.boot.servlet;

import java.util.Collections;
import java.util.Enumeration;

/**
 * The attributes of a servlet context or a request: setting {@code null} removes, and every add, replace or remove
 * is reported to the owner's attribute listeners. Thread-safe, as async requests and the context are shared.
 */
public final class Attributes {

    /** Reports one change: {@code old} is null for an add, {@code value} is null for a remove. */
    @FunctionalInterface
    public interface ChangeListener {
        void changed(String name, Object value, Object old);
    }

    private final AttributeTable values;
    private final ChangeListener listener;

    /** @param expected how many attributes the owner usually holds: they fit without the storage growing */
    public Attributes(int expected, ChangeListener listener) {
        this.values = new AttributeTable(expected);
        this.listener = listener;
    }

    public Object get(String name) {
        return values.get(name);
    }

    /** A snapshot of the names, so callers may change attributes while they enumerate. */
    public Enumeration<String> names() {
        return Collections.enumeration(values.names());
    }

    public void set(String name, Object value) {
        if (value == null) {
            remove(name);
            return;
        }
        Object old = values.put(name, value);
        listener.changed(name, value, old);
    }

    public void remove(String name) {
        Object old = values.remove(name);
        if (old != null) {
            listener.changed(name, null, old);
        }
    }

    /**
     * Sets an attribute the container provides before any listener could care (the temp directory, a request's TLS
     * attributes).
     */
    public void setQuietly(String name, Object value) {
        values.put(name, value);
    }
}
