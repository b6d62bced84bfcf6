package io.sprout.engine.exchange;

import java.io.IOException;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Keeps an asynchronous exchange's response buffers from going back to the pool under a writer. From
 * {@code startAsync} on, one thread may write while another ends the exchange: every call holds the lock, so writers
 * take turns, and the end releases the buffers only when no call holds it; otherwise the call that does releases
 * them as it leaves. A {@link ReentrantLock}, so a waiting virtual thread unmounts. A blocking exchange needs none.
 */
final class ReleaseGuard {

    private final ReentrantLock lock = new ReentrantLock();
    private final Exchange exchange;
    private final Runnable release;

    /** @param release returns the buffers to the pool; idempotent */
    ReleaseGuard(Exchange exchange, Runnable release) {
        this.exchange = exchange;
        this.release = release;
    }

    /** A call on the response that may fail. */
    @FunctionalInterface
    interface Call {
        void run() throws IOException;
    }

    /** Runs {@code call} under {@code guard}, or as it is while there is none (a blocking exchange). */
    static void run(ReleaseGuard guard, Call call) throws IOException {
        if (guard == null) {
            call.run();
            return;
        }
        guard.enter();
        try {
            call.run();
        } finally {
            guard.exit();
        }
    }

    /** Enters a call; fails when the exchange has ended (its buffers are gone or about to be). */
    void enter() throws IOException {
        lock.lock();
        if (exchange.ended()) {
            // The end may have found the lock taken by this very call: then the release is this call's to do.
            exit();
            throw new IOException("The exchange has ended");
        }
    }

    /** Leaves a call; when the exchange ended meanwhile, the buffers are released now that nobody uses them. */
    void exit() {
        lock.unlock();
        if (exchange.ended()) {
            releaseUnlessInUse();
        }
    }

    /** Releases unless a call holds the lock; that call's {@link #exit()} releases then. */
    void releaseUnlessInUse() {
        if (lock.tryLock()) {
            try {
                release.run();
            } finally {
                lock.unlock();
            }
        }
    }
}
