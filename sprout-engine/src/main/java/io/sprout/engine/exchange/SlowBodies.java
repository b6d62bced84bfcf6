package io.sprout.engine.exchange;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * The request bodies that platform workers are blocked reading right now, so that a saturated pool can take a worker
 * back from the slowest of them: the same idea as shedding idle connections at the connection limit, applied to
 * workers. A body qualifies once it is below the minimum body rate with its grace period waived (see
 * {@link BodyClock#sheddableFrom}); {@link #shedOne} cuts the read of the one that qualified first (the oldest or
 * slowest), which then fails as the rate rule fails a body: {@code 408}, {@code Connection: close}, the connection
 * closed after the answer is written.
 *
 * <p>Off (every call a no-op) for virtual threads, which are never saturated, and without a body rate rule.
 * Thread-safe: waits begin and end on the workers reading bodies; {@link #shedOne} runs on whichever thread found
 * work waiting, and never blocks.
 */
public final class SlowBodies {

    private static final int IDLE = 0;
    private static final int WAITING = 1;
    private static final int SHED = 2;

    /** One body's blocking reads, one at a time; a body that never waits for the socket never takes one. */
    final class Wait {

        /** Ends the blocked read from another thread (the wire's {@code cutReadShort}). */
        private final Runnable cut;
        private final AtomicInteger state = new AtomicInteger(IDLE);
        private volatile long sheddableFrom;

        private Wait(Runnable cut) {
            this.cut = cut;
        }

        /** The reading worker starts waiting; from {@code sheddable} on it may be cut short. */
        void begin(long sheddable) {
            if (!enabled) {
                return;
            }
            sheddableFrom = sheddable;
            state.set(WAITING);
            waits.add(this);
            if (owed.get() > 0) {
                retryIn(sheddable - System.nanoTime());
            }
        }

        /** The reading worker's wait is over; returns whether it was cut short, in which case the body has failed. */
        boolean end() {
            if (!enabled) {
                return false;
            }
            waits.remove(this);
            return state.getAndSet(IDLE) == SHED;
        }
    }

    private final boolean enabled;
    private final Counters counters;
    private final ScheduledExecutorService timer;
    private final Set<Wait> waits = ConcurrentHashMap.newKeySet();
    /** Tasks that waited for a worker when no body qualified yet: a shed each is owed once bodies qualify. */
    private final AtomicInteger owed = new AtomicInteger();
    /** Guarded by {@code this}: whether a pay-back is scheduled, and for when. */
    private boolean retryPending;
    private long retryAt;
    /** What every body gets while shedding is off: its calls do nothing. */
    private final Wait off = new Wait(null);
    private volatile BooleanSupplier workStillWaits = () -> false;

    /**
     * @param enabled whether workers can be saturated (platform threads) and a body rate rule applies
     * @param timer where owed sheds happen, once a body qualifies
     */
    SlowBodies(boolean enabled, Counters counters, ScheduledExecutorService timer) {
        this.enabled = enabled;
        this.counters = counters;
        this.timer = timer;
    }

    /** For a body whose blocked read {@code cut} ends; its reader calls {@link Wait#begin} and {@link Wait#end}. */
    Wait watch(Runnable cut) {
        return enabled ? new Wait(cut) : off;
    }

    /**
     * A task waits for a worker (or was refused one): cuts short the wait of the body that qualified first. When none
     * qualifies yet, the shed is owed: it happens as soon as a body qualifies, if {@code workStillWaits} then says
     * so (asked again before each owed shed). At most one shed is owed per worker.
     *
     * @param maxOwed the pool size
     */
    public void shedOne(BooleanSupplier workStillWaits, int maxOwed) {
        if (!enabled) {
            return;
        }
        this.workStillWaits = workStillWaits;
        long delay = shedFirst();
        if (delay != 0) {
            owed.updateAndGet(count -> Math.min(maxOwed, count + 1));
            if (delay > 0) {
                retryIn(delay);
            }
        }
    }

    /** Sheds the wait that qualified first; else returns the nanoseconds until one qualifies, or -1 if none waits. */
    private long shedFirst() {
        while (true) {
            long now = System.nanoTime();
            Wait first = null;
            long firstFrom = 0;
            long soonest = -1;
            for (Wait wait : waits) {
                long from = wait.sheddableFrom;
                if (wait.state.get() != WAITING) {
                    continue;
                }
                if (now - from < 0) {
                    soonest = soonest < 0 ? from - now : Math.min(soonest, from - now);
                } else if (first == null || from - firstFrom < 0) {
                    first = wait;
                    firstFrom = from;
                }
            }
            if (first == null) {
                return soonest;
            }
            // Rechecked: a wait that ended and began again since the scan is judged on its new instant.
            if (first.sheddableFrom == firstFrom && first.state.compareAndSet(WAITING, SHED)) {
                counters.requestsShed.increment();
                first.cut.run();
                return 0;
            }
        }
    }

    /** Timer thread: pays what is owed while work still waits, as far as bodies qualify. */
    private void payOwed() {
        synchronized (this) {
            retryPending = false;
        }
        while (owed.get() > 0) {
            if (!workStillWaits.getAsBoolean()) {
                owed.set(0);
                return;
            }
            long delay = shedFirst();
            if (delay != 0) {
                // None qualifies yet: the first that will, or the next body to wait, brings this back.
                if (delay > 0) {
                    retryIn(delay);
                }
                return;
            }
            owed.decrementAndGet();
        }
    }

    /** Schedules a pay-back in {@code delayNanos}, unless one is due sooner. */
    private synchronized void retryIn(long delayNanos) {
        long at = System.nanoTime() + Math.max(1, delayNanos);
        if (retryPending && retryAt - at <= 0) {
            return;
        }
        try {
            // A later one already scheduled stays: it finds nothing owed, or pays what is owed by then.
            timer.schedule(this::payOwed, Math.max(1, delayNanos), TimeUnit.NANOSECONDS);
            retryPending = true;
            retryAt = at;
        } catch (RejectedExecutionException stopping) {
            // The server is stopping: nothing waits for a worker any more.
        }
    }
}
