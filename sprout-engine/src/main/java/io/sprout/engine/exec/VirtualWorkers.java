package io.sprout.engine.exec;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** One virtual thread per task; the executor tracks them so shutdown can interrupt and wait. */
final class VirtualWorkers implements Workers {

    private final ExecutorService executor;
    private final AtomicInteger busy = new AtomicInteger();

    VirtualWorkers(String name) {
        this.executor = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name(name + "-", 1).factory());
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
        } catch (RejectedExecutionException shutDown) {
            return false;
        }
    }

    @Override
    public int busy() {
        return busy.get();
    }

    @Override
    public int current() {
        return busy.get();
    }

    @Override
    public int max() {
        return -1;
    }

    @Override
    public boolean underPressure() {
        return false;
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
