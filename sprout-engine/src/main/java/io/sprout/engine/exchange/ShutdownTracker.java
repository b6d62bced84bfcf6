package io.sprout.engine.exchange;

import io.sprout.engine.ShutdownResult;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Graceful shutdown as its own small state: once {@link #begin} is called, responses say
 * {@code Connection: close}, and the callback fires exactly once, with {@link ShutdownResult#IDLE} when the last
 * active exchange ends or {@link ShutdownResult#REQUESTS_ACTIVE} when the server is stopped first. Thread-safe.
 *
 * <p>Public because the server package's {@code EngineServer} begins and ends a graceful shutdown on it and transport's
 * {@code ConnectionWorker} asks whether it drains, both through {@link ServerContext}.
 */
public final class ShutdownTracker {

    private final Counters counters;
    private final AtomicReference<Consumer<ShutdownResult>> callback = new AtomicReference<>();
    private volatile boolean draining;

    ShutdownTracker(Counters counters) {
        this.counters = counters;
    }

    /** Whether new work should be refused and connections closed after their current response. */
    public boolean draining() {
        return draining;
    }

    /** Starts draining; reports at once when nothing is active. */
    public void begin(Consumer<ShutdownResult> onDone) {
        callback.set(onDone);
        draining = true;
        exchangeEnded();
    }

    /** Called whenever an exchange (or a partly received head) ends. */
    public void exchangeEnded() {
        if (draining && counters.requestsActive.sum() == 0) {
            report(ShutdownResult.IDLE);
        }
    }

    /** Called by {@code stop()}: ends a pending wait. */
    public void stopped() {
        draining = true;
        report(ShutdownResult.REQUESTS_ACTIVE);
    }

    private void report(ShutdownResult result) {
        Consumer<ShutdownResult> pending = callback.getAndSet(null);
        if (pending != null) {
            pending.accept(result);
        }
    }
}
