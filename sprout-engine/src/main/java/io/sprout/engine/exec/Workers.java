package io.sprout.engine.exec;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The threads that run handlers and the tasks of suspended exchanges. Never an I/O event loop.
 *
 * <p>Each server owns one instance; all methods are thread-safe.
 *
 * <p>Public because the server package ({@code EngineServer} creates, {@code SheddingWorkers} decorates,
 * {@code EngineStats} reads) and transport (dispatching heads and handshake tasks) use it: exec sits below both.
 */
public interface Workers {

    /**
     * A pool of up to {@code size} platform threads made by {@code threads}, each when a task finds no idle one (so
     * after the bind: see {@link ThreadNames}; see {@link IdleFirstQueue} for why) and kept for good; at most
     * {@code queueCapacity} tasks wait for one.
     */
    static Workers platform(int size, int queueCapacity, ThreadFactory threads) {
        if (queueCapacity == 0) {
            ThreadPoolExecutor pool = new ThreadPoolExecutor(size, size, 60, TimeUnit.SECONDS,
                    new SynchronousQueue<>(), threads, new ThreadPoolExecutor.AbortPolicy());
            return new ExecutorWorkers(pool, size, pool::getPoolSize);
        }
        IdleFirstQueue queue = new IdleFirstQueue(queueCapacity);
        // No core threads, so that the pool asks the queue before it starts one; a keep-alive of Long.MAX_VALUE
        // nanoseconds (292 years) keeps each thread for good, as the pool of core threads did.
        ThreadPoolExecutor pool = new ThreadPoolExecutor(0, size, Long.MAX_VALUE, TimeUnit.NANOSECONDS, queue, threads,
                queue.rejection());
        queue.feeds(pool);
        return new ExecutorWorkers(pool, size, pool::getPoolSize);
    }

    /** One new virtual thread per task, without limit. */
    static Workers virtual() {
        // Unnamed: a name would be a new string per task, and a virtual thread lives for one task only.
        return new ExecutorWorkers(Executors.newThreadPerTaskExecutor(Thread.ofVirtual().factory()), -1, null);
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

    /** Interrupts running tasks and waits up to {@code timeout} for them to end. */
    void shutdownNow(Duration timeout);
}
