package io.sprout.engine.transport;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The connections a server may close to admit a new one at {@code maxConnections}, oldest first in two lanes: idle
 * keep-alive connections, then connections waiting for (the rest of) a request head, whose oldest is the slowest.
 *
 * <p>A connection takes a {@link ShedTicket} when it starts waiting and gives it back when it stops; tickets given
 * back stay queued until shedding or a purge passes them, so entering and leaving a lane are O(1) and lock-free.
 * Shedding is a request to the connection's owner ({@link Sheddable#shed}), which closes it only if it still waits
 * in the same phase: a connection that has just started a request is left alone, and the limit is exceeded by that
 * one connection until another closes.
 */
final class ShedQueue {

    /** A connection that can be asked to close because the server needs its slot; any thread, must not block. */
    @FunctionalInterface
    interface Sheddable {
        void shed(ShedTicket ticket);
    }

    private static final int PURGE_THRESHOLD = 4096;

    private final Queue<ShedTicket> idle = new ConcurrentLinkedQueue<>();
    private final Queue<ShedTicket> heads = new ConcurrentLinkedQueue<>();
    private final AtomicInteger stale = new AtomicInteger();
    private final AtomicBoolean purging = new AtomicBoolean();

    /** The connection now waits, idle, for its next request. */
    ShedTicket idle(Sheddable connection) {
        ShedTicket ticket = new ShedTicket(connection, true);
        idle.add(ticket);
        return ticket;
    }

    /** The connection now waits for a request head (a new connection, or a head that came in part). */
    ShedTicket awaitingHead(Sheddable connection) {
        ShedTicket ticket = new ShedTicket(connection, false);
        heads.add(ticket);
        return ticket;
    }

    /** The wait ended (a request arrived, or the connection closed); {@code null} is ignored. */
    void done(ShedTicket ticket) {
        if (ticket != null && ticket.take() && stale.incrementAndGet() > PURGE_THRESHOLD) {
            purge();
        }
    }

    /**
     * Asks the oldest idle connection, else the oldest waiting for a head, to close.
     *
     * @return whether one was asked
     */
    boolean shedOne() {
        return shedOldest(idle) || shedOldest(heads);
    }

    private boolean shedOldest(Queue<ShedTicket> lane) {
        ShedTicket ticket;
        while ((ticket = lane.poll()) != null) {
            if (ticket.take()) {
                ticket.connection.shed(ticket);
                return true;
            }
            stale.decrementAndGet();
        }
        return false;
    }

    /** Drops given-back tickets; one thread at a time, the one whose give-back crossed the threshold. */
    private void purge() {
        if (!purging.compareAndSet(false, true)) {
            return;
        }
        try {
            int[] removed = new int[1];
            idle.removeIf(ticket -> !ticket.waiting() && ++removed[0] > 0);
            heads.removeIf(ticket -> !ticket.waiting() && ++removed[0] > 0);
            stale.addAndGet(-removed[0]);
        } finally {
            purging.set(false);
        }
    }
}
