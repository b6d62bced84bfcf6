package io.sprout.engine.contract;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * Samples a gauge about once a millisecond on its own thread and keeps the highest value seen, for asserting that
 * something stays bounded while a transfer runs. Sampling can miss a short peak, never invent one.
 */
final class PeakGauge implements AutoCloseable {

    private static final long PERIOD_NANOS = 1_000_000;

    private final LongSupplier gauge;
    private final AtomicLong peak = new AtomicLong(Long.MIN_VALUE);
    private final Thread sampler;
    private volatile boolean sampling = true;

    private PeakGauge(LongSupplier gauge, String name) {
        this.gauge = gauge;
        this.sampler = Thread.ofPlatform().daemon().name("peak-" + name).start(this::sample);
    }

    static PeakGauge watch(String name, LongSupplier gauge) {
        return new PeakGauge(gauge, name);
    }

    /** The highest value sampled so far. */
    long peak() {
        return peak.get();
    }

    @Override
    public void close() {
        sampling = false;
        try {
            sampler.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void sample() {
        while (sampling) {
            long value = gauge.getAsLong();
            peak.accumulateAndGet(value, Math::max);
            LockSupport.parkNanos(PERIOD_NANOS);
        }
    }
}
