package io.sprout.engine.exec;

import io.sprout.engine.contract.Await;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class WorkersTest {

    private final List<Thread> made = new CopyOnWriteArrayList<>();
    private final ThreadFactory threads = task -> {
        Thread thread = Thread.ofPlatform().daemon().unstarted(task);
        made.add(thread);
        return thread;
    };

    @Test
    void reusesAnIdleThreadInsteadOfStartingAnother() {
        Workers workers = Workers.platform(8, 100, threads);
        try {
            for (int i = 0; i < 20; i++) {
                CountDownLatch ran = new CountDownLatch(1);
                assertThat(workers.tryExecute(ran::countDown)).isTrue();
                Await.latch(ran, "the task ran");
                Await.until(this::allIdle, "every thread waits for a task");
            }
            assertThat(workers.current()).isEqualTo(1);
        } finally {
            workers.shutdownNow(Duration.ofSeconds(5));
        }
    }

    @Test
    void startsThreadsUpToTheMaximumThenQueues() {
        Workers workers = Workers.platform(4, 100, threads);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(6);
        try {
            for (int i = 0; i < 6; i++) {
                assertThat(workers.tryExecute(() -> {
                    awaitQuietly(release);
                    done.countDown();
                })).isTrue();
            }
            Await.until(() -> workers.busy() == 4, "four tasks run");
            assertThat(workers.current()).isEqualTo(4);
            release.countDown();
            Await.latch(done, "the queued tasks ran too");
        } finally {
            release.countDown();
            workers.shutdownNow(Duration.ofSeconds(5));
        }
    }

    @Test
    void refusesOnlyWhenEveryThreadIsBusyAndTheQueueFull() {
        Workers workers = Workers.platform(2, 1, threads);
        CountDownLatch release = new CountDownLatch(1);
        try {
            assertThat(workers.tryExecute(() -> awaitQuietly(release))).isTrue();
            assertThat(workers.tryExecute(() -> awaitQuietly(release))).isTrue();
            assertThat(workers.tryExecute(() -> awaitQuietly(release))).as("queued").isTrue();
            assertThat(workers.tryExecute(() -> awaitQuietly(release))).as("refused").isFalse();
        } finally {
            release.countDown();
            workers.shutdownNow(Duration.ofSeconds(5));
        }
    }

    @Test
    void queuesATaskWhoseThreadAnotherTaskTookInBetween() {
        IdleFirstQueue queue = new IdleFirstQueue(1);
        ThreadPoolExecutor pool = new ThreadPoolExecutor(0, 1, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>(),
                threads);
        try {
            queue.rejection().rejectedExecution(() -> { }, pool);
            assertThat(queue).hasSize(1);
            assertThatExceptionOfType(RejectedExecutionException.class).as("the queue is full")
                    .isThrownBy(() -> queue.rejection().rejectedExecution(() -> { }, pool));
            queue.clear();
            pool.shutdown();
            assertThatExceptionOfType(RejectedExecutionException.class).as("the pool is shut down")
                    .isThrownBy(() -> queue.rejection().rejectedExecution(() -> { }, pool));
        } finally {
            pool.shutdownNow();
        }
    }

    private boolean allIdle() {
        return made.stream().allMatch(thread -> thread.getState() == Thread.State.TIMED_WAITING
                || thread.getState() == Thread.State.WAITING);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(Await.LIMIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
