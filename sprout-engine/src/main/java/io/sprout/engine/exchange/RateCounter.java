package io.sprout.engine.exchange;

/**
 * A budget of events per window of time for one HTTP/2 connection (resets, control frames, empty frames): once a
 * window holds more than the budget, the client is abusing the protocol and the connection ends with
 * {@code ENHANCE_YOUR_CALM}. Fixed windows: a burst straddling two windows gets at most twice the budget, which is
 * still far below what the floods it guards against need. Thread-safe: resets are counted by workers too.
 */
final class RateCounter {

    private final int budget;
    private final long windowNanos;
    private long windowStart = System.nanoTime();
    private int count;

    RateCounter(int budget, long windowNanos) {
        this.budget = budget;
        this.windowNanos = windowNanos;
    }

    /** Counts one event; {@code false} when the budget of the current window is spent. */
    synchronized boolean tick() {
        long now = System.nanoTime();
        if (now - windowStart >= windowNanos) {
            windowStart = now;
            count = 0;
        }
        return ++count <= budget;
    }
}
