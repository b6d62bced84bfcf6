package io.sprout.engine.exchange;

import io.sprout.engine.MinDataRates;
import io.sprout.engine.TimeoutKind;
import io.sprout.engine.Timeouts;

/**
 * How long the next wait for request body bytes may last, and which limit would end it: the per-read
 * {@code bodyRead} timeout, the {@link MinDataRates} body rule, or the optional whole-body deadline
 * ({@code requestBody}). The rate counts only time spent waiting for the client (Kestrel's rule): a handler that
 * pauses between reads costs the client nothing. The whole-body deadline starts with the first wait. Used by the
 * one thread reading the body at a time.
 */
final class BodyClock {

    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    /**
     * The least waiting a body is judged on when its grace is waived: about a long-distance round trip, so a body is
     * not judged before its first bytes could arrive; and no longer, since work waiting for a worker waits for it.
     */
    private static final long SHED_EVIDENCE_NANOS = 100_000_000L;

    private final long readNanos;
    private final long totalNanos;
    private final long rate;
    private final long graceNanos;
    private long bodyDeadline;
    private long waited;
    private long received;
    private TimeoutKind limit = TimeoutKind.BODY;

    BodyClock(Timeouts timeouts, MinDataRates rates) {
        this.readNanos = timeouts.bodyRead().toNanos();
        this.totalNanos = timeouts.requestBody().toNanos();
        this.rate = rates.bodyBytesPerSecond();
        this.graceNanos = rates.bodyGracePeriod().toNanos();
    }

    /** The longest the wait starting at {@code now} may last (0 or less: none); remembers which limit that is. */
    long allowedWait(long now) {
        if (totalNanos > 0 && bodyDeadline == 0) {
            bodyDeadline = now + totalNanos;
        }
        long wait = readNanos;
        limit = TimeoutKind.BODY;
        if (rate > 0) {
            long byRate = Math.max(graceNanos, earned()) - waited;
            if (byRate < wait) {
                wait = byRate;
                limit = TimeoutKind.RATE;
            }
        }
        if (bodyDeadline != 0 && bodyDeadline - now < wait) {
            wait = bodyDeadline - now;
            limit = TimeoutKind.BODY;
        }
        return wait;
    }

    /**
     * From when the wait starting at {@code now} may be cut short if a worker is needed ({@link SlowBodies}): the
     * instant the body falls below the minimum rate with its grace period waived, but not before it has waited at
     * least 100 ms (or its whole grace period, if shorter) in all, so that a body is judged on some evidence, not
     * on nothing. Without a rate rule, never (in practice).
     */
    long sheddableFrom(long now) {
        return now + Math.max(earned(), Math.min(graceNanos, SHED_EVIDENCE_NANOS)) - waited;
    }

    /** How long the bytes received so far entitle the client to wait in all, at the minimum rate (no rule: ever). */
    private long earned() {
        // Capped far below overflow: an instant plus this must still compare by difference.
        return rate == 0 || received >= Long.MAX_VALUE / NANOS_PER_SECOND ? Long.MAX_VALUE / 4
                : Math.min(Long.MAX_VALUE / 4, received * NANOS_PER_SECOND / rate);
    }

    /** The wait was cut short because a worker was needed: it ends as the rate rule ends a body. */
    void shed() {
        limit = TimeoutKind.RATE;
    }

    /** A wait lasted {@code nanos} and brought {@code bytes}. */
    void waited(long nanos, long bytes) {
        waited += Math.max(0, nanos);
        received += Math.max(0, bytes);
    }

    /** The limit that ended the last wait, if it timed out. */
    TimeoutKind limit() {
        return limit;
    }
}
