package io.sprout.boot.servlet.session;

import jakarta.servlet.http.HttpSession;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class SessionStoreTest {

    private final List<String> events = new ArrayList<>();
    private final MutableClock clock = new MutableClock();
    private final SessionStore store = new SessionStore(null, new RecordingEvents(), clock, 60);

    @Test
    void findsSessionsUntilTheyExpire() {
        SproutSession session = store.create();
        clock.advance(Duration.ofSeconds(59));
        assertThat(store.find(session.getId())).isSameAs(session);
        assertThat(session.isNew()).isFalse();
        clock.advance(Duration.ofSeconds(60));
        assertThat(store.find(session.getId())).isNull();
        assertThat(events).containsExactly("created", "destroyed");
    }

    @Test
    void evictsExpiredSessionsAndTellsListeners() {
        SproutSession session = store.create();
        session.setAttribute("k", "v");
        clock.advance(Duration.ofMinutes(2));
        store.evictExpired();
        assertThat(store.size()).isZero();
        assertThat(events).containsExactly("created", "added k", "destroyed", "removed k");
        assertThatIllegalStateException().isThrownBy(() -> session.getAttribute("k"));
    }

    @Test
    void changesIdKeepingAttributes() {
        SproutSession session = store.create();
        session.setAttribute("k", "v");
        String old = session.getId();
        String fresh = store.changeId(session);
        assertThat(fresh).isNotEqualTo(old).hasSize(32);
        assertThat(store.find(old)).isNull();
        assertThat(store.find(fresh).getAttribute("k")).isEqualTo("v");
        assertThat(events).contains("id " + old);
    }

    @Test
    void existsDoesNotCountAsAccess() {
        SproutSession session = store.create();
        clock.advance(Duration.ofSeconds(10));
        assertThat(store.exists(session.getId())).isTrue();
        assertThat(session.getLastAccessedTime()).isEqualTo(session.getCreationTime());
        store.find(session.getId());
        clock.advance(Duration.ofSeconds(5));
        store.find(session.getId());
        assertThat(session.getLastAccessedTime()).isEqualTo(session.getCreationTime() + 10_000);
        assertThat(store.exists("unknown")).isFalse();
    }

    @Test
    void nonPositiveIntervalNeverExpires() {
        SproutSession session = store.create();
        session.setMaxInactiveInterval(0);
        clock.advance(Duration.ofDays(365));
        assertThat(store.find(session.getId())).isSameAs(session);
    }

    private final class RecordingEvents implements SessionEvents {
        @Override
        public void created(HttpSession session) {
            events.add("created");
        }

        @Override
        public void destroyed(HttpSession session) {
            events.add("destroyed");
        }

        @Override
        public void idChanged(HttpSession session, String oldId) {
            events.add("id " + oldId);
        }

        @Override
        public void attributeAdded(HttpSession session, String name, Object value) {
            events.add("added " + name);
        }

        @Override
        public void attributeReplaced(HttpSession session, String name, Object oldValue) {
            events.add("replaced " + name);
        }

        @Override
        public void attributeRemoved(HttpSession session, String name, Object value) {
            events.add("removed " + name);
        }
    }

    private static final class MutableClock extends Clock {
        private Instant now = Instant.parse("2026-01-01T00:00:00Z");

        void advance(Duration duration) {
            now = now.plus(duration);
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
