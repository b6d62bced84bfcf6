package io.sprout.engine.exchange;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The exchanges of one server that hold no thread: suspended or upgraded. Lifecycle events reach them through
 * here: a graceful shutdown tells the upgraded ones, {@code stop()} aborts them all and waits until they have
 * released what they hold. Thread-safe.
 *
 * <p>Public because the server package's {@code EngineServer} (graceful shutdown, stop) and {@code EngineStats} reach it
 * through {@link ServerContext}: the lifecycle above commands the exchanges below.
 */
public final class LiveExchanges {

    private final Set<Exchange> live = ConcurrentHashMap.newKeySet();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition emptied = lock.newCondition();

    void added(Exchange exchange) {
        live.add(exchange);
    }

    void removed(Exchange exchange) {
        if (live.remove(exchange) && live.isEmpty()) {
            lock.lock();
            try {
                emptied.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    /** How many exchanges are suspended or upgraded now. */
    public int count() {
        return live.size();
    }

    /** Graceful shutdown: each upgraded connection runs its shutdown task (or is closed cleanly). */
    public void shutdownUpgraded() {
        for (Exchange exchange : List.copyOf(live)) {
            exchange.serverShuttingDown();
        }
    }

    /** Aborts every live exchange and waits up to {@code timeout} for them to end. */
    public void abortAll(Duration timeout) {
        for (Exchange exchange : List.copyOf(live)) {
            exchange.abort(new java.nio.channels.AsynchronousCloseException());
        }
        lock.lock();
        try {
            long left = timeout.toNanos();
            while (!live.isEmpty() && left > 0) {
                left = emptied.awaitNanos(Math.min(left, TimeUnit.MILLISECONDS.toNanos(50)));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            lock.unlock();
        }
    }
}
