package io.sprout.engine.transport;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One connection's wait in one lane of the {@link ShedQueue}, from when it starts waiting until the wait ends or the
 * connection is asked to close; whichever comes first takes it, exactly once, by clearing {@link #waiting}.
 */
final class ShedTicket {

    final ShedQueue.Sheddable connection;
    private final boolean idle;
    /** Set while the connection waits; cleared by the first of give-back and shedding. */
    final AtomicBoolean waiting = new AtomicBoolean(true);

    ShedTicket(ShedQueue.Sheddable connection, boolean idle) {
        this.connection = connection;
        this.idle = idle;
    }

    /** Whether the connection was idle (else waiting for a head) when it took the ticket. */
    boolean idle() {
        return idle;
    }
}
