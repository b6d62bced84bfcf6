package io.sprout.boot.servlet;

import java.util.Collections;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The init parameters of one servlet or filter registration, with the Servlet spec's rules: names and values are
 * not null, a name is set once, and nothing changes after the context is initialised.
 */
final class InitParameters {

    private final SproutServletContext context;
    private final Map<String, String> values = new LinkedHashMap<>();

    InitParameters(SproutServletContext context) {
        this.context = context;
    }

    /** Sets a parameter unless it is already set; returns whether it was set. */
    boolean set(String key, String value) {
        if (key == null || value == null) {
            throw new IllegalArgumentException("Init parameter name and value must not be null");
        }
        context.checkInitializing();
        return values.putIfAbsent(key, value) == null;
    }

    /** Sets each parameter that is not set yet; returns the names that were already set. */
    Set<String> setAll(Map<String, String> parameters) {
        Set<String> conflicts = new HashSet<>();
        parameters.forEach((key, value) -> {
            if (!set(key, value)) {
                conflicts.add(key);
            }
        });
        return conflicts;
    }

    String get(String key) {
        return values.get(key);
    }

    Map<String, String> asMap() {
        return Collections.unmodifiableMap(values);
    }

    Enumeration<String> names() {
        return Collections.enumeration(values.keySet());
    }
}
