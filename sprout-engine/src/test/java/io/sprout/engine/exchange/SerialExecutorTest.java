package io.sprout.engine.exchange;

import io.sprout.engine.ServerConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where an exchange's tasks run when the workers refuse them: on the rescue threads, else (the exchange aborted and
 * counted once) from the timer's retries, else, the server having stopped, on the calling thread. Never on a thread
 * the executor starts itself.
 */
class SerialExecutorTest {

    private static final Executor REFUSES = task -> {
        throw new RejectedExecutionException("full");
    };

    private final AtomicInteger aborts = new AtomicInteger();
    private ServerContext context;

    @AfterEach
    void close() {
        context.close();
    }

    @Test
    void runsWhatTheWorkersRefuseOnTheRescue() {
        List<String> rescued = new CopyOnWriteArrayList<>();
        context = context(REFUSES, task -> {
            rescued.add("drain");
            new Thread(task, "rescue-under-test").start();
        });

        assertThat(runOneTask()).containsExactly("rescue-under-test");
        assertThat(rescued).hasSize(1);
        assertThat(aborts).hasValue(0);
        assertThat(context.counters().exchangesRefused.sum()).isZero();
    }

    @Test
    void abortsOnceAndRetriesFromTheTimerWhenTheRescueIsFullToo() {
        AtomicInteger offers = new AtomicInteger();
        // Refuses the first three offers, as a saturated pool would, then takes the drain.
        Executor saturatedThenFree = task -> {
            if (offers.incrementAndGet() <= 3) {
                throw new RejectedExecutionException("full");
            }
            new Thread(task, "worker-under-test").start();
        };
        context = context(saturatedThenFree, REFUSES);

        assertThat(runOneTask()).containsExactly("worker-under-test");
        assertThat(offers).hasValue(4);
        assertThat(aborts).as("aborted once, not once per retry").hasValue(1);
        assertThat(context.counters().exchangesRefused.sum()).isEqualTo(1);
    }

    @Test
    void endsOnTheCallingThreadOnceTheServerHasStopped() {
        context = context(REFUSES, REFUSES);
        context.close();

        assertThat(runOneTask()).containsExactly(Thread.currentThread().getName());
        assertThat(aborts).hasValue(1);
    }

    /** Queues one task while holding the slot, gives the slot up, and returns the threads the task ran on. */
    private List<String> runOneTask() {
        CountDownLatch ran = new CountDownLatch(1);
        List<String> threads = new CopyOnWriteArrayList<>();
        SerialExecutor tasks = SerialExecutor.occupied(context, aborts::incrementAndGet);
        tasks.execute(() -> {
            threads.add(Thread.currentThread().getName());
            ran.countDown();
        });
        tasks.release();
        try {
            assertThat(ran.await(30, TimeUnit.SECONDS)).as("the task ran").isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
        return threads;
    }

    private static ServerContext context(Executor workers, Executor rescue) {
        return new ServerContext(ServerConfig.builder().build(), (request, response) -> { }, workers, rescue,
                task -> new Thread(task, "timer-under-test"));
    }
}
