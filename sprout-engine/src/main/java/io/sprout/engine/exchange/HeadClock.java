package io.sprout.engine.exchange;

import io.sprout.engine.MinDataRates;
import io.sprout.engine.TimeoutKind;
import io.sprout.engine.Timeouts;

/**
 * The time limits on one connection while it waits for a request head, in one place for both transports.
 *
 * <ul>
 *   <li>A new connection's first head must be complete within {@code requestHead} of the accept, time spent
 *       waiting for a worker or a TLS handshake included ({@link #accepted}).</li>
 *   <li>Between requests a keep-alive connection is idle ({@link #idle}) until the next head's first byte, which
 *       starts that head's deadline; if no byte comes within {@code idle} it closes quietly.</li>
 *   <li>Once a head has begun, the {@link MinDataRates} head rule holds as well: after the grace period, the bytes
 *       received must keep up {@code headBytesPerSecond} since its first byte.</li>
 * </ul>
 *
 * Used by whichever thread owns the connection; the fields are volatile because a sweep on another thread (the
 * event loop's) may read them right after an ownership hand-over.
 *
 * <p>Public because transport's {@code HeadWait} runs it for the head a connection awaits: the limits on a head are
 * exchange policy, the waiting is the transport's.
 */
public final class HeadClock {

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final long headNanos;
    private final long idleNanos;
    private final long rate;
    private final long graceNanos;
    private volatile boolean idle;
    private volatile long idleSince;
    private volatile long deadline;
    private volatile boolean started;
    private volatile long firstByte;
    private volatile long received;

    public HeadClock(Timeouts timeouts, MinDataRates rates) {
        this.headNanos = timeouts.requestHead().toNanos();
        this.idleNanos = timeouts.idle().toNanos();
        this.rate = rates.headBytesPerSecond();
        this.graceNanos = rates.headGracePeriod().toNanos();
    }

    /** How long the connection has waited at {@code now} without a byte of its next head; 0 while a head is due. */
    public long idleNanos(long now) {
        return idle ? now - idleSince : 0;
    }

    /** A new connection, accepted at {@code acceptedNanos}: its first head is due from then. */
    public void accepted(long acceptedNanos) {
        idle = false;
        deadline = acceptedNanos + headNanos;
        started = false;
        received = 0;
    }

    /** The connection waits for a next request from {@code now}, with nothing of it received. */
    public void idle(long now) {
        idle = true;
        idleSince = now;
        started = false;
        received = 0;
    }

    /** A next head has begun before {@code now} (pipelined bytes already buffered): its deadline runs from now. */
    public void headBegun(long now) {
        idle(now);
        received(now, 1);
    }

    /** {@code count} bytes of the head arrived at {@code now}; the first of an idle connection starts the deadline. */
    public void received(long now, int count) {
        if (count <= 0) {
            return;
        }
        if (idle) {
            idle = false;
            deadline = now + headNanos;
        }
        if (!started) {
            started = true;
            firstByte = now;
        }
        received += count;
    }

    /** Whether the connection waits between requests with nothing of the next one received. */
    public boolean idle() {
        return idle;
    }

    /** Whether any byte of the awaited head has arrived. */
    public boolean begun() {
        return started;
    }

    /** The limit that has run out at {@code now}, or {@code null} while the connection is within all of them. */
    public TimeoutKind expired(long now) {
        if (idle) {
            return now - idleSince > idleNanos ? TimeoutKind.IDLE : null;
        }
        if (now - deadline > 0) {
            return TimeoutKind.HEAD;
        }
        return started && now - rateDeadline() > 0 ? TimeoutKind.RATE : null;
    }

    /** When the limits run out if no further byte arrives (a blocking reader's timeout). */
    public long expiresAt() {
        if (idle) {
            return idleSince + idleNanos;
        }
        if (!started) {
            return deadline;
        }
        long byRate = rateDeadline();
        // Compared by difference: nanoTime values may wrap.
        return byRate - deadline < 0 ? byRate : deadline;
    }

    /** The moment the received bytes stop satisfying the rate rule: its grace period, or later with more bytes. */
    private long rateDeadline() {
        if (rate == 0) {
            return Long.MAX_VALUE / 2 + firstByte;
        }
        long earned = received >= Long.MAX_VALUE / NANOS_PER_SECOND ? Long.MAX_VALUE / 4
                : received * NANOS_PER_SECOND / rate;
        return firstByte + Math.max(graceNanos, earned);
    }
}
