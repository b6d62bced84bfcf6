package io.sprout.boot.servlet.session;

import java.util.Map;

/**
 * What a persisted session keeps across a restart: its id, times, interval, whether it is still new, and its
 * attributes (in a file, only those that could be serialised).
 */
record SessionState(String id, long creationTime, long lastAccessedTime, long thisAccessedTime,
        int maxInactiveSeconds, boolean fresh, Map<String, Object> attributes) {

    SessionState {
        attributes = Map.copyOf(attributes);
    }
}
