package io.sprout.engine.exec;

import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** A fixed pool of named platform threads with a bounded queue. */
final class PlatformWorkers implements Workers {

    private final ThreadPoolExecutor executor;
    private final AtomicInteger busy = new AtomicInteger();
    private final int size;

    PlatformWorkers(int size, int queueCapacity, String name) {
        this.size = size;
        BlockingQueue<Runnable> queue = queueCapacity == 0
                ? new SynchronousQueue<>()
                : new ArrayBlockingQueue<>(queueCapacity);
        AtomicInteger counter = new AtomicInteger();
        this.executor = new ThreadPoolExecutor(size, size, 60, TimeUnit.SECONDS, queue, task -> {
            Thread thread = new Thread(task, name + "-" + counter.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        }, new ThreadPoolExecutor.AbortPolicy());
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
        return executor.getPoolSize();
    }

    @Override
    public int max() {
        return size;
    }

    @Override
    public boolean underPressure() {
        return busy.get() * 10 >= size * 9;
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
