package io.sprout.engine.exec;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;

/** {@link Workers} over an executor, counting busy tasks itself (cheaper than asking a pool under its lock). */
final class ExecutorWorkers implements Workers {

    private final ExecutorService executor;
    private final int max;
    private final IntSupplier threads;
    private final AtomicInteger busy = new AtomicInteger();

    /**
     * @param max the pool size, or -1 when unbounded
     * @param threads how many worker threads exist, or {@code null} when each busy task is its own thread
     */
    ExecutorWorkers(ExecutorService executor, int max, IntSupplier threads) {
        this.executor = executor;
        this.max = max;
        this.threads = threads == null ? busy::get : threads;
    }

    @Override
    public boolean tryExecute(Runnable task) {
        try {
            executor.execute(() -> {
                busy.incrementAndGet();
                try {
                    task.run();
                } finally {
                    busy.decrementAndGet();
                }
            });
            return true;
        } catch (RejectedExecutionException overloadedOrShutDown) {
            return false;
        }
    }

    @Override
    public int busy() {
        return busy.get();
    }

    @Override
    public int current() {
        return threads.getAsInt();
    }

    @Override
    public int max() {
        return max;
    }

    @Override
    public void shutdownNow(Duration timeout) {
        executor.shutdownNow();
        try {
            executor.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
