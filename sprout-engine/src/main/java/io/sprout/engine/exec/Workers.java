package io.sprout.engine.exec;

import java.time.Duration;

/**
 * The threads that run handlers (and, in hybrid mode, whole connections). Never an I/O event loop.
 *
 * <p>Each server owns one instance; all methods are thread-safe.
 */
public interface Workers {

    /** A fixed pool of {@code size} platform threads; at most {@code queueCapacity} tasks wait for one. */
    static Workers platform(int size, int queueCapacity, String name) {
        return new PlatformWorkers(size, queueCapacity, name);
    }

    /** One new virtual thread per task, without limit. */
    static Workers virtual(String name) {
        return new VirtualWorkers(name);
    }

    /**
     * Runs the task on a worker, returning {@code false} without running it when the pool and its queue are full
     * or the workers are shut down. Never blocks.
     */
    boolean tryExecute(Runnable task);

    /** Tasks running now. */
    int busy();

    /** Worker threads that exist now. */
    int current();

    /** The pool size, or -1 when unbounded. */
    int max();

    /**
     * Whether a bounded pool is nearly exhausted (at least 90% of its threads busy), so connections should stop
     * holding workers between requests. Always {@code false} for virtual threads.
     */
    boolean underPressure();

    /** Interrupts running tasks and waits up to {@code timeout} for them to end. */
    void shutdownNow(Duration timeout);
}
