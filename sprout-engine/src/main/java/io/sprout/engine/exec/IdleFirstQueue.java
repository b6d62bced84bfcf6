package io.sprout.engine.exec;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The platform pool's queue, which makes the pool start a thread only when no started one is idle (Tomcat's
 * {@code TaskQueue} does the same). A task is queued while more threads wait in the queue than tasks do, or once
 * the pool has all its threads; otherwise the offer is refused, which makes the pool start one for it.
 *
 * <p>Why: a pool whose core size is its maximum starts a thread for each of its first tasks, idle threads or not,
 * and its idle threads take tasks in turn. Two hundred threads taking turns each allocate so little between
 * collections that the JVM gives them tiny TLABs, and the unused ends of those were 7 % of the heap a request took
 * ({@code -Xlog:gc+tlab}, 50 connections; 2.3 % with the ~50 threads the load needs). Started threads never retire,
 * as before.
 *
 * <p>When the pool refuses a task because another task took its last thread in between, {@link #rejection} queues it
 * after all: a task is refused only when the queue is full or the pool shut down.
 */
final class IdleFirstQueue extends ArrayBlockingQueue<Runnable> {

    /** Threads blocked in {@link #take} or {@link #poll(long, TimeUnit)}: the idle ones. */
    private final AtomicInteger idle = new AtomicInteger();
    private volatile ThreadPoolExecutor pool;

    IdleFirstQueue(int capacity) {
        super(capacity);
    }

    /** The pool this queue feeds; set once, before its first task. */
    void feeds(ThreadPoolExecutor executor) {
        pool = executor;
    }

    /** Queues the task if an idle thread is left for it or no thread may start; else refuses so that one starts. */
    @Override
    public boolean offer(Runnable task) {
        ThreadPoolExecutor executor = pool;
        int spare = idle.get();
        if (spare > 0 && spare > size() || executor.getPoolSize() >= executor.getMaximumPoolSize()) {
            return super.offer(task);
        }
        return false;
    }

    @Override
    public Runnable take() throws InterruptedException {
        idle.incrementAndGet();
        try {
            return super.take();
        } finally {
            idle.decrementAndGet();
        }
    }

    @Override
    public Runnable poll(long timeout, TimeUnit unit) throws InterruptedException {
        idle.incrementAndGet();
        try {
            return super.poll(timeout, unit);
        } finally {
            idle.decrementAndGet();
        }
    }

    /** The pool's handler for a task it could not start a thread for: queued unless full or shut down. */
    RejectedExecutionHandler rejection() {
        return (task, executor) -> {
            // The shutdown check after queuing is the one the pool makes after its own offer.
            if (executor.isShutdown() || !super.offer(task) || executor.isShutdown() && remove(task)) {
                throw new RejectedExecutionException("The workers and their queue are full, or shut down");
            }
        };
    }
}
