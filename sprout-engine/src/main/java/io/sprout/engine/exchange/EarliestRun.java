package io.sprout.engine.exchange;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * One task run on a scheduler at the earliest instant anyone asked for. A request for a later instant than the run
 * already pending is dropped: that run comes first, and the task asks again if it still has something to wait for.
 * So a burst of requests costs one scheduled run, not one each. The task must be harmless to run early or twice.
 *
 * <p>Thread-safe; never blocks beyond a short lock.
 */
final class EarliestRun {

    private final ScheduledExecutorService scheduler;
    private final Runnable task;
    /** Guarded by {@code this}: whether a run is scheduled, and for when. */
    private boolean pending;
    private long pendingAt;

    EarliestRun(ScheduledExecutorService scheduler, Runnable task) {
        this.scheduler = scheduler;
        this.task = task;
    }

    /** Runs the task in {@code delayNanos} (at least a nanosecond from now), unless a run is due sooner. */
    synchronized void within(long delayNanos) {
        long delay = Math.max(1, delayNanos);
        long at = System.nanoTime() + delay;
        if (pending && pendingAt - at <= 0) {
            return;
        }
        try {
            // A later run already scheduled stays: the task then finds nothing to do, or does what is due by then.
            scheduler.schedule(this::run, delay, TimeUnit.NANOSECONDS);
            pending = true;
            pendingAt = at;
        } catch (RejectedExecutionException stopping) {
            // The scheduler stops with its server: nothing waits for this run any more.
        }
    }

    private void run() {
        synchronized (this) {
            pending = false;
        }
        task.run();
    }
}
