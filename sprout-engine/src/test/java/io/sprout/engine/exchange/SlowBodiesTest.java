package io.sprout.engine.exchange;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import static org.assertj.core.api.Assertions.assertThat;

/** Which blocked body loses its worker, and when, given instants relative to now. */
class SlowBodiesTest {

    private static final long S = 1_000_000_000L;

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final Counters counters = new Counters();

    @AfterEach
    void stopTimer() {
        timer.shutdownNow();
    }

    @Test
    void shedsTheBodyThatQualifiedFirst() throws InterruptedException {
        SlowBodies bodies = new SlowBodies(true, counters, timer);
        MemoryChannel older = new MemoryChannel("");
        MemoryChannel newer = new MemoryChannel("");
        MemoryChannel notYet = new MemoryChannel("");
        SlowBodies.Wait newerWait = begin(bodies, newer, -S);
        SlowBodies.Wait olderWait = begin(bodies, older, -2 * S);
        SlowBodies.Wait notYetWait = begin(bodies, notYet, 60 * S);

        bodies.shedOne(() -> true, 4);

        assertThat(older.awaitCutShort(0)).isTrue();
        assertThat(olderWait.end()).as("the older body's wait was cut short").isTrue();
        assertThat(newerWait.end()).isFalse();
        assertThat(notYetWait.end()).isFalse();
        assertThat(counters.requestsShed.sum()).isEqualTo(1);
    }

    @Test
    void owesAShedUntilABodyQualifies() throws InterruptedException {
        SlowBodies bodies = new SlowBodies(true, counters, timer);
        bodies.shedOne(() -> true, 4);
        MemoryChannel slow = new MemoryChannel("");

        SlowBodies.Wait wait = begin(bodies, slow, -S);

        assertThat(slow.awaitCutShort(30)).as("the owed shed is paid on the timer").isTrue();
        assertThat(wait.end()).isTrue();
        assertThat(counters.requestsShed.sum()).isEqualTo(1);
    }

    @Test
    void doesNothingWhenOff() throws InterruptedException {
        SlowBodies bodies = new SlowBodies(false, counters, timer);
        MemoryChannel slow = new MemoryChannel("");
        SlowBodies.Wait wait = begin(bodies, slow, -S);

        bodies.shedOne(() -> true, 4);

        assertThat(slow.awaitCutShort(0)).isFalse();
        assertThat(wait.end()).isFalse();
        assertThat(counters.requestsShed.sum()).isZero();
    }

    private static SlowBodies.Wait begin(SlowBodies bodies, MemoryChannel channel, long sheddableFromNow) {
        SlowBodies.Wait wait = bodies.watch(channel::cutReadShort);
        wait.begin(System.nanoTime() + sheddableFromNow);
        return wait;
    }
}
