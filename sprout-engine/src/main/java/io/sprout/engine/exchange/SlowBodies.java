package io.sprout.engine.exchange;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The bodies that platform workers are blocked on right now, so that a saturated pool can take a worker back from
 * the slowest of them: the same idea as shedding idle connections at the connection limit, applied to workers. A
 * request body qualifies once it is below the minimum body rate with its grace period waived (see
 * {@link BodyClock#sheddableFrom}; never without a rate rule); a shed cuts the read of the one that qualified first
 * (the oldest or slowest), which then fails as the rate rule fails a body: {@code 408}, {@code Connection: close},
 * the connection closed after the answer is written. An HTTP/2 response body whose write has waited 100 ms for the
 * client's flow-control window qualifies too (a client that never opens its windows, CVE-2019-9517's kin); its shed
 * resets the stream with {@code ENHANCE_YOUR_CALM} and fails the write.
 *
 * <p>Shedding is level-triggered: as long as the pool's {@link Demand} reports tasks that wait with no shed on its
 * way for them, each body that qualifies is shed; when none qualifies yet, the timer comes back when the first will.
 * Asking the demand again before every shed (rather than counting sheds owed) means a worker that is freed for a
 * moment, or a body that begins to wait while a task is being queued, cannot make a shed go missing.
 *
 * <p>Off (every call a no-op) for virtual threads, which are never saturated.
 * Thread-safe: waits begin and end on the workers reading bodies; {@link #shedAsNeeded} runs on whichever thread found
 * work waiting, or on the timer, and never blocks.
 *
 * <p>Public because the server package's {@code SheddingWorkers} implements {@link Demand} and calls
 * {@link #shedAsNeeded}: the pool decorator above asks the exchange layer for a worker back, never the reverse.
 */
public final class SlowBodies {

    /** The pool's side: how many tasks wait for a worker with no shed on its way for them, and each shed made. */
    public interface Demand {

        /** Tasks waiting for a worker, less the sheds made for them whose worker has not taken a task yet. */
        int unmet();

        /** A body was shed: its worker will be free for a waiting task once the body's exchange ends. */
        void shed();
    }

    private static final Demand NONE = new Demand() {
        @Override
        public int unmet() {
            return 0;
        }

        @Override
        public void shed() {
        }
    };

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
            // Added before the demand is read: a task queued meanwhile either sees this wait or is seen here.
            waits.add(this);
            if (demand.unmet() > 0) {
                pass.within(sheddable - System.nanoTime());
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
    private final Set<Wait> waits = ConcurrentHashMap.newKeySet();
    /** A pass on the timer, for when the first body qualifies. */
    private final EarliestRun pass;
    /** What every body gets while shedding is off: its calls do nothing. */
    private final Wait off = new Wait(null);
    private volatile Demand demand = NONE;

    /**
     * @param enabled whether workers can be saturated (platform threads)
     * @param timer where later passes run, once a body qualifies
     */
    SlowBodies(boolean enabled, Counters counters, ScheduledExecutorService timer) {
        this.enabled = enabled;
        this.counters = counters;
        this.pass = new EarliestRun(timer, this::shedAsNeeded);
    }

    /** For a body whose blocked read {@code cut} ends; its reader calls {@link Wait#begin} and {@link Wait#end}. */
    Wait watch(Runnable cut) {
        return enabled ? new Wait(cut) : off;
    }

    /** Connects the pool whose waiting tasks bodies are shed for (once, before the server accepts connections). */
    public void demand(Demand demand) {
        this.demand = demand;
    }

    /**
     * A task waits for a worker (or was refused one): sheds qualified bodies while the demand is unmet. When none
     * qualifies yet, a pass on the timer is scheduled for the instant the first will; a body that begins to wait
     * while the demand is unmet schedules one too.
     */
    public void shedAsNeeded() {
        if (!enabled) {
            return;
        }
        while (demand.unmet() > 0) {
            long delay = shedFirst();
            if (delay != 0) {
                // None qualifies yet: the first that will, or the next body to wait, brings this back.
                if (delay > 0) {
                    pass.within(delay);
                }
                return;
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
                // Told before the cut: the freed worker may take a waiting task before the cut returns.
                demand.shed();
                first.cut.run();
                return 0;
            }
        }
    }
}
