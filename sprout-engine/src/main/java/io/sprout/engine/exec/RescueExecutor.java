package io.sprout.engine.exec;

import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * A few platform threads, with a bounded queue, for the tasks of suspended exchanges that the workers refused (pool
 * and queue full, or stopping). Such a task may be the one that completes an exchange and returns its buffers, so
 * dropping it is no option; starting a thread per refusal, as the engine once did, made a platform-thread server
 * grow threads without limit exactly when it was overloaded. One instance per server, named after its port
 * ({@code sprout-8080-rescue-1}); its threads exist only while there is rescue work (they end after 30 s idle).
 *
 * <p>When the rescue threads and their queue are full as well, {@link #tryExecute} refuses and the caller decides:
 * the exchange's {@code SerialExecutor} then aborts the exchange, counts it, and retries from the server's timer
 * until some thread takes what is left, which then only ends it.
 *
 * <p>Thread-safe; {@link #tryExecute} never blocks.
 *
 * <p>Public because the server package's {@code EngineServer} creates one per server and {@code EngineStats} reads its
 * count: the lifecycle owns the threads, the exchange sees only an {@code Executor}.
 */
public final class RescueExecutor {

    /** Few: the rescue absorbs a burst of refusals; sustained overload is the worker queue's and admission's job. */
    private static final int THREADS = 2;
    private static final int QUEUE_CAPACITY = 512;
    private static final Duration KEEP_ALIVE = Duration.ofSeconds(30);

    private final ThreadPoolExecutor pool;
    private final LongAdder rescued = new LongAdder();

    /** @param threads makes the rescue threads (daemons, named after the server's port) */
    public RescueExecutor(ThreadFactory threads) {
        pool = new ThreadPoolExecutor(THREADS, THREADS, KEEP_ALIVE.toMillis(), TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(QUEUE_CAPACITY), threads, new ThreadPoolExecutor.AbortPolicy());
        pool.allowCoreThreadTimeOut(true);
    }

    /**
     * Runs the task on a rescue thread, counting it, or returns {@code false} without running it when the rescue
     * threads and their queue are full or the server has stopped. Any thread; never blocks.
     */
    public boolean tryExecute(Runnable task) {
        try {
            pool.execute(task);
        } catch (RejectedExecutionException fullOrStopped) {
            return false;
        }
        rescued.increment();
        return true;
    }

    /** Tasks the rescue threads have taken since start. */
    public long rescued() {
        return rescued.sum();
    }

    /** Interrupts running tasks and waits up to {@code timeout} for them to end. */
    public void shutdownNow(Duration timeout) {
        pool.shutdownNow();
        try {
            pool.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
