package io.sprout.engine.exchange;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** Which blocked body loses its worker, and when, given instants relative to now. */
class SlowBodiesTest {

    private static final long S = 1_000_000_000L;

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final Counters counters = new Counters();
    private final TasksWaiting tasks = new TasksWaiting();

    @AfterEach
    void stopTimer() {
        timer.shutdownNow();
    }

    @Test
    void shedsTheBodyThatQualifiedFirst() throws InterruptedException {
        SlowBodies bodies = bodies(true);
        MemoryChannel older = new MemoryChannel("");
        MemoryChannel newer = new MemoryChannel("");
        MemoryChannel notYet = new MemoryChannel("");
        SlowBodies.Wait newerWait = begin(bodies, newer, -S);
        SlowBodies.Wait olderWait = begin(bodies, older, -2 * S);
        SlowBodies.Wait notYetWait = begin(bodies, notYet, 60 * S);

        tasks.queue(1);
        bodies.shedAsNeeded();

        assertThat(older.awaitCutShort(0)).isTrue();
        assertThat(olderWait.end()).as("the older body's wait was cut short").isTrue();
        assertThat(newerWait.end()).isFalse();
        assertThat(notYetWait.end()).isFalse();
        assertThat(counters.requestsShed.sum()).isEqualTo(1);
    }

    @Test
    void shedsOnceABodyQualifiesWhileATaskStillWaits() throws InterruptedException {
        SlowBodies bodies = bodies(true);
        tasks.queue(1);
        bodies.shedAsNeeded();
        MemoryChannel slow = new MemoryChannel("");

        SlowBodies.Wait wait = begin(bodies, slow, -S);

        assertThat(slow.awaitCutShort(30)).as("the body that began to wait is shed on the timer").isTrue();
        assertThat(wait.end()).isTrue();
        assertThat(counters.requestsShed.sum()).isEqualTo(1);
    }

    @Test
    void shedsOneBodyPerWaitingTaskAsEachQualifies() throws InterruptedException {
        SlowBodies bodies = bodies(true);
        MemoryChannel first = new MemoryChannel("");
        MemoryChannel second = new MemoryChannel("");
        MemoryChannel spared = new MemoryChannel("");
        begin(bodies, first, S / 20);
        begin(bodies, second, S / 10);
        begin(bodies, spared, S / 5);

        tasks.queue(2);
        bodies.shedAsNeeded();

        assertThat(first.awaitCutShort(30)).isTrue();
        assertThat(second.awaitCutShort(30)).as("the second waiting task gets its shed too").isTrue();
        assertThat(spared.awaitCutShort(1)).as("two tasks, two sheds").isFalse();
        assertThat(counters.requestsShed.sum()).isEqualTo(2);
    }

    @Test
    void shedsNothingOnceTheWaitingTaskHasAWorker() throws InterruptedException {
        SlowBodies bodies = bodies(true);
        MemoryChannel slow = new MemoryChannel("");
        begin(bodies, slow, S / 20);
        tasks.queue(1);
        bodies.shedAsNeeded();

        tasks.queue(-1);

        assertThat(slow.awaitCutShort(1)).as("nothing waits when the body qualifies").isFalse();
        assertThat(counters.requestsShed.sum()).isZero();
    }

    @Test
    void doesNothingWhenOff() throws InterruptedException {
        SlowBodies bodies = bodies(false);
        MemoryChannel slow = new MemoryChannel("");
        SlowBodies.Wait wait = begin(bodies, slow, -S);

        tasks.queue(1);
        bodies.shedAsNeeded();

        assertThat(slow.awaitCutShort(0)).isFalse();
        assertThat(wait.end()).isFalse();
        assertThat(counters.requestsShed.sum()).isZero();
    }

    private SlowBodies bodies(boolean enabled) {
        SlowBodies bodies = new SlowBodies(enabled, counters, timer);
        bodies.demand(tasks);
        return bodies;
    }

    /** The pool's side, as {@code SheddingWorkers} keeps it: tasks waiting less the sheds made for them. */
    private static final class TasksWaiting implements SlowBodies.Demand {

        private final AtomicInteger unmet = new AtomicInteger();

        void queue(int tasks) {
            unmet.addAndGet(tasks);
        }

        @Override
        public int unmet() {
            return unmet.get();
        }

        @Override
        public void shed() {
            unmet.decrementAndGet();
        }
    }

    private static SlowBodies.Wait begin(SlowBodies bodies, MemoryChannel channel, long sheddableFromNow) {
        SlowBodies.Wait wait = bodies.watch(channel::cutReadShort);
        wait.begin(System.nanoTime() + sheddableFromNow);
        return wait;
    }
}
