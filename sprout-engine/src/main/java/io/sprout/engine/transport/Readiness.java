package io.sprout.engine.transport;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The hand-off between a worker that would block and the event loop that sees the socket become ready. A
 * {@link ReentrantLock} rather than {@code synchronized}, so a waiting virtual thread unmounts from its carrier.
 */
final class Readiness {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private boolean ready;

    /** Called by the worker before it asks the loop to watch the socket. */
    void arm() {
        lock.lock();
        try {
            ready = false;
        } finally {
            lock.unlock();
        }
    }

    /** Called by the loop on readiness, or on close so the worker notices. */
    void signal() {
        lock.lock();
        try {
            ready = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Waits until signalled or {@code nanos} pass; returns whether it was signalled. */
    boolean await(long nanos) throws InterruptedException {
        lock.lock();
        try {
            long left = nanos;
            while (!ready && left > 0) {
                left = changed.awaitNanos(left);
            }
            return ready;
        } finally {
            lock.unlock();
        }
    }
}
