package io.sprout.engine.transport;

import io.sprout.engine.TimeoutKind;
import io.sprout.engine.exchange.Counters;
import io.sprout.engine.exchange.HeadClock;
import io.sprout.engine.exchange.ServerContext;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A connection's wait for its next request head, which its event loop watches in either execution mode: its
 * {@link HeadClock}, its place in the {@link ShedQueue} (as an idle connection, or as a head on its way), and its
 * share of the idle gauge. Used by whichever thread owns the connection, hand-overs ordered by the transport; the
 * ticket is volatile because the acceptor's shed request is checked against it on the owner's thread.
 */
final class HeadWait {

    private final HeadClock clock;
    private final ShedQueue shedQueue;
    private final ShedQueue.Sheddable connection;
    private final Counters counters;
    private final AtomicBoolean countedIdle = new AtomicBoolean();
    private volatile ShedTicket ticket;

    /** @param connection what the shed queue asks to close when the server needs the slot */
    HeadWait(ServerContext context, ShedQueue shedQueue, ShedQueue.Sheddable connection) {
        this.clock = new HeadClock(context.config().timeouts(), context.config().minDataRates());
        this.shedQueue = shedQueue;
        this.connection = connection;
        this.counters = context.counters();
    }

    HeadClock clock() {
        return clock;
    }

    /** Acceptor thread: a new connection; its first head is due from the accept, and it is shed in accept order. */
    void admitted(long acceptedNanos) {
        clock.accepted(acceptedNanos);
        ticket = shedQueue.awaitingHead(connection);
    }

    /** After a response: the connection waits, idle, or with the next head begun when pipelined bytes are buffered. */
    void again(long now, boolean headBegun) {
        if (headBegun) {
            clock.headBegun(now);
            ticket = shedQueue.awaitingHead(connection);
        } else {
            clock.idle(now);
            if (countedIdle.compareAndSet(false, true)) {
                counters.connectionsIdle.increment();
            }
            ticket = shedQueue.idle(connection);
        }
    }

    /** The bytes received so far do not complete the head: from now on it waits as a head on its way. */
    void headIncomplete() {
        if (ticket == null || ticket.idle()) {
            // From now on the connection is shed as a slow head, no longer as an idle one.
            shedQueue.done(ticket);
            ticket = shedQueue.awaitingHead(connection);
        }
    }

    /**
     * {@code count} bytes arrived at {@code now}; then either they complete the head ({@link #ended}) or not
     * ({@link #headIncomplete}).
     */
    void received(long now, int count) {
        leaveIdle();
        clock.received(now, count);
    }

    /** The wait is over: a whole head arrived, or the connection is answered or closed. */
    void ended() {
        leaveIdle();
        shedQueue.done(ticket);
        ticket = null;
    }

    /** Whether a shed request made with {@code shed} still applies: the connection waits as it did then. */
    boolean stillWaitsAs(ShedTicket shed) {
        return ticket == shed;
    }

    /** The limit that has run out at {@code now}, counted, or {@code null}. */
    TimeoutKind expired(long now) {
        TimeoutKind expired = clock.expired(now);
        if (expired != null) {
            counters.timedOut(expired);
        }
        return expired;
    }

    /** Whether the connection has waited at least {@code nanos} at {@code now} without a byte of its next head. */
    boolean idleFor(long now, long nanos) {
        return clock.idleNanos(now) >= nanos;
    }

    /** Whether any byte of the awaited head has arrived (else a timed-out connection closes without an answer). */
    boolean begun() {
        return clock.begun();
    }

    private void leaveIdle() {
        if (countedIdle.compareAndSet(true, false)) {
            counters.connectionsIdle.decrement();
        }
    }
}
