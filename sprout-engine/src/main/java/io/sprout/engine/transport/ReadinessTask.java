package io.sprout.engine.transport;

import java.util.concurrent.atomic.AtomicReference;

/**
 * One pending readiness task of a connection (for reading or for writing) with its deadline. Whoever takes the task
 * runs it: the loop on readiness, the sweep past the deadline, or the close. Taking is atomic, so it runs once.
 */
final class ReadinessTask {

    private record Pending(long deadlineNanos, Runnable task) {
    }

    private final int op;
    private final AtomicReference<Pending> pending = new AtomicReference<>();

    ReadinessTask(int op) {
        this.op = op;
    }

    void set(long deadlineNanos, Runnable task) {
        pending.set(new Pending(deadlineNanos, task));
    }

    /** The interest op while a task waits, else 0. */
    int ops() {
        return pending.get() == null ? 0 : op;
    }

    void fireIf(int readyOps) {
        if ((readyOps & op) != 0) {
            fire();
        }
    }

    void fireIfOverdue(long now) {
        Pending current = pending.get();
        if (current != null && now - current.deadlineNanos() >= 0 && pending.compareAndSet(current, null)) {
            current.task().run();
        }
    }

    void fire() {
        Pending taken = pending.getAndSet(null);
        if (taken != null) {
            taken.task().run();
        }
    }
}
