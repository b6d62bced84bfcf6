package io.sprout.boot.servlet.session;

import jakarta.servlet.http.HttpSession;
import jakarta.servlet.http.HttpSessionActivationListener;
import jakarta.servlet.http.HttpSessionEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
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

    @Test
    void persistsLiveSessionsAndRestoresThoseThatHaveNotExpired(@TempDir Path temp) throws IOException {
        Path file = temp.resolve("SESSIONS.ser");
        SproutSession longLived = store.create();
        longLived.setAttribute("cart", new ArrayList<>(List.of("apple")));
        longLived.setAttribute("count", 3);
        SproutSession shortLived = store.create();
        shortLived.setMaxInactiveInterval(5);
        SproutSession invalidated = store.create();
        invalidated.invalidate();
        clock.advance(Duration.ofSeconds(2));
        store.find(longLived.getId());
        events.clear();

        store.persist(file);
        assertThat(store.size()).isZero();
        assertThat(events).as("persisting is not destroying").isEmpty();
        clock.advance(Duration.ofSeconds(10));
        SessionStore next = new SessionStore(null, new RecordingEvents(), clock, 60);

        assertThat(next.restore(file, getClass().getClassLoader())).isEqualTo(1);
        assertThat(file).doesNotExist();
        assertThat(next.exists(shortLived.getId())).as("expired while persisted").isFalse();
        SproutSession restored = next.find(longLived.getId());
        assertThat(restored.getAttribute("cart")).isEqualTo(List.of("apple"));
        assertThat(restored.getAttribute("count")).isEqualTo(3);
        assertThat(restored.getCreationTime()).isEqualTo(longLived.getCreationTime());
        assertThat(restored.isNew()).isFalse();
        assertThat(events).as("restoring is not creating").isEmpty();
    }

    @Test
    void leavesOutAttributesThatCannotBeSerialised(@TempDir Path temp) throws IOException {
        Path file = temp.resolve("SESSIONS.ser");
        SproutSession session = store.create();
        session.setAttribute("plain", "kept");
        session.setAttribute("object", new Object());
        session.setAttribute("holder", new Holder(new Object()));
        store.persist(file);
        SessionStore next = new SessionStore(null, new RecordingEvents(), clock, 60);
        next.restore(file, getClass().getClassLoader());
        SproutSession restored = next.find(session.getId());
        assertThat(Collections.list(restored.getAttributeNames())).containsExactly("plain");
    }

    @Test
    void tellsActivationListenersOnBothSides(@TempDir Path temp) throws IOException {
        Path file = temp.resolve("SESSIONS.ser");
        SproutSession session = store.create();
        Activation original = new Activation();
        session.setAttribute("listener", original);
        store.persist(file);
        assertThat(original.passivated).isTrue();
        SessionStore next = new SessionStore(null, new RecordingEvents(), clock, 60);
        next.restore(file, getClass().getClassLoader());
        Activation restored = (Activation) next.find(session.getId()).getAttribute("listener");
        assertThat(restored).isNotSameAs(original);
        assertThat(restored.activated).isTrue();
    }

    @Test
    void restoresNothingFromAMissingOrForeignFile(@TempDir Path temp) throws IOException {
        assertThat(store.restore(temp.resolve("absent.ser"), getClass().getClassLoader())).isZero();
        Path foreign = Files.writeString(temp.resolve("foreign.ser"), "not sessions at all");
        assertThat(store.restore(foreign, getClass().getClassLoader())).isZero();
        assertThat(foreign).as("a file that cannot be read is not read again").doesNotExist();
    }

    /** Serializable in name only: its field is not. */
    record Holder(Object content) implements Serializable {
    }

    /** Remembers what it heard; the flags travel with the serialised copy. */
    static final class Activation implements HttpSessionActivationListener, Serializable {
        boolean passivated;
        boolean activated;

        @Override
        public void sessionWillPassivate(HttpSessionEvent event) {
            passivated = true;
        }

        @Override
        public void sessionDidActivate(HttpSessionEvent event) {
            activated = true;
        }
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
