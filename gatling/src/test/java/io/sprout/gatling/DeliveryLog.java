package io.sprout.gatling;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * The deliveries of broadcast messages seen by every session of a run: a histogram of delivery times at millisecond
 * resolution (a session's receipt time from Gatling is in milliseconds) and, per broadcast, its start and its last
 * delivery. Gatling records requests, not inbound messages that nobody awaited, so {@code WebSocketBroadcast} keeps
 * its own statistics here and prints them. Thread-safe: sessions record from Gatling's event loops.
 */
final class DeliveryLog {

    /** Delivery times above this many milliseconds count in the last bucket. */
    static final int MAX_MILLIS = 120_000;

    private final AtomicLongArray histogram = new AtomicLongArray(MAX_MILLIS + 1);

    private final LongAdder deliveries = new LongAdder();

    private final LongAdder totalMillis = new LongAdder();

    private final LongAdder malformed = new LongAdder();

    /** Per broadcast start (epoch microseconds): the latest receipt, epoch milliseconds. */
    private final Map<Long, LongAccumulator> lastDelivery = new ConcurrentHashMap<>();

    /** Broadcasts that started before this (epoch microseconds) warm up: counted, not measured. */
    private volatile long measuredFromMicros = Long.MAX_VALUE;

    private final LongAdder warmUpDeliveries = new LongAdder();

    /**
     * Records one message received at {@code receivedMillis} (epoch ms). A message that is not a broadcast message
     * ({@code broadcast <sequence> <epoch-micros> ...}, written by the sample app) counts as malformed; one of a
     * broadcast that started before {@link #measureFromNow} only counts as a warm-up delivery.
     */
    void record(String text, long receivedMillis) {
        long startMicros = broadcastStart(text);
        if (startMicros < 0) {
            this.malformed.increment();
            return;
        }
        if (startMicros < this.measuredFromMicros) {
            this.warmUpDeliveries.increment();
            return;
        }
        long millis = Math.max(0, Math.round((receivedMillis * 1000.0 - startMicros) / 1000.0));
        this.histogram.incrementAndGet((int) Math.min(millis, MAX_MILLIS));
        this.deliveries.increment();
        this.totalMillis.add(millis);
        this.lastDelivery.computeIfAbsent(startMicros, (start) -> new LongAccumulator(Math::max, Long.MIN_VALUE))
            .accumulate(receivedMillis);
    }

    /** The start stamp of a broadcast message, or -1 if {@code text} is not one. */
    static long broadcastStart(String text) {
        String[] parts = text.split(" ", 4);
        if (parts.length < 3 || !"broadcast".equals(parts[0]) || parts[2].isEmpty()
                || !parts[2].chars().allMatch(Character::isDigit) || parts[2].length() > 18) {
            return -1;
        }
        return Long.parseLong(parts[2]);
    }

    /** Until this is called every broadcast warms up; from then on those that start from now on are measured. */
    void measureFromNow() {
        this.measuredFromMicros = ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
    }

    long deliveries() {
        return this.deliveries.sum();
    }

    long warmUpDeliveries() {
        return this.warmUpDeliveries.sum();
    }

    long malformed() {
        return this.malformed.sum();
    }

    double meanMillis() {
        long count = deliveries();
        return (count == 0) ? 0 : (double) this.totalMillis.sum() / count;
    }

    /** The smallest delivery time (ms) that at least {@code percent} % of the deliveries did not exceed. */
    long percentileMillis(double percent) {
        long count = deliveries();
        if (count == 0) {
            return 0;
        }
        long rank = (long) Math.ceil(count * percent / 100.0);
        long seen = 0;
        for (int millis = 0; millis <= MAX_MILLIS; millis++) {
            seen += this.histogram.get(millis);
            if (seen >= Math.max(1, rank)) {
                return millis;
            }
        }
        return MAX_MILLIS;
    }

    /** Summed over broadcasts: from each broadcast's start to its last delivery, in milliseconds. */
    long deliveringMillis() {
        long total = 0;
        for (Map.Entry<Long, LongAccumulator> broadcast : this.lastDelivery.entrySet()) {
            total += Math.max(1, broadcast.getValue().get() - broadcast.getKey() / 1000);
        }
        return total;
    }

    int broadcasts() {
        return this.lastDelivery.size();
    }

}
