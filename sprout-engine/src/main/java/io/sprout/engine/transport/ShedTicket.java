package io.sprout.engine.transport;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One connection's wait in one lane of the {@link ShedQueue}, from when it starts waiting until the wait ends or the
 * connection is asked to close; whichever comes first takes it, exactly once, by clearing {@link #waiting}.
 */
final class ShedTicket {

    private static final VarHandle WAITING;

    static {
        try {
            WAITING = MethodHandles.lookup().findVarHandle(ShedTicket.class, "waiting", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final ShedQueue.Sheddable connection;
    private final boolean idle;
    /**
     * Set while the connection waits; cleared by the first of give-back and shedding. A field with a VarHandle, not
     * an atomic object: a ticket is taken for every request a connection waits for.
     */
    private volatile boolean waiting = true;

    ShedTicket(ShedQueue.Sheddable connection, boolean idle) {
        this.connection = connection;
        this.idle = idle;
    }

    /** Whether the connection was idle (else waiting for a head) when it took the ticket. */
    boolean idle() {
        return idle;
    }

    boolean waiting() {
        return waiting;
    }

    /** Clears {@link #waiting}; {@code true} for the one caller that cleared it. */
    boolean take() {
        return WAITING.compareAndSet(this, true, false);
    }
}
