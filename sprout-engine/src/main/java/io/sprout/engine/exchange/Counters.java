package io.sprout.engine.exchange;

import io.sprout.engine.TimeoutKind;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * The live counters behind {@link io.sprout.engine.ServerStats}; updated by transports and exchanges.
 *
 * <p>Public because transport counts accepts, sheds and head timeouts into it and the server package's
 * {@code EngineStats} reads it: kept below the transports, it gives both one place to count.
 */
public final class Counters {

    public final LongAdder connectionsOpen = new LongAdder();
    public final LongAdder connectionsIdle = new LongAdder();
    public final LongAdder connectionsAccepted = new LongAdder();
    public final LongAdder connectionsRejected = new LongAdder();
    public final LongAdder connectionsShed = new LongAdder();
    public final LongAdder requestsActive = new LongAdder();
    public final LongAdder requestsTotal = new LongAdder();
    /** Suspended exchanges aborted because no worker and no rescue thread could take their tasks. */
    public final LongAdder exchangesRefused = new LongAdder();
    public final LongAdder requestsShed = new LongAdder();
    public final LongAdder bytesIn = new LongAdder();
    public final LongAdder bytesOut = new LongAdder();
    private final Map<TimeoutKind, LongAdder> timeouts = new EnumMap<>(TimeoutKind.class);

    public Counters() {
        for (TimeoutKind kind : TimeoutKind.values()) {
            timeouts.put(kind, new LongAdder());
        }
    }

    /** Counts one connection or exchange ended by the limit of {@code kind}. */
    public void timedOut(TimeoutKind kind) {
        timeouts.get(kind).increment();
    }

    public long timeouts(TimeoutKind kind) {
        return timeouts.get(kind).sum();
    }
}
