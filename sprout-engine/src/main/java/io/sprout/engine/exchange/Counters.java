package io.sprout.engine.exchange;

import io.sprout.engine.TimeoutKind;
import io.sprout.engine.http2.ErrorCode;

import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
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
    /** HTTP/2 streams open now (their exchanges running or their requests arriving). */
    public final LongAdder http2StreamsActive = new LongAdder();
    public final LongAdder http2ResetsReceived = new LongAdder();
    public final LongAdder http2ResetsSent = new LongAdder();
    private final Map<TimeoutKind, LongAdder> timeouts = new EnumMap<>(TimeoutKind.class);
    private final Map<String, LongAdder> goAways = new ConcurrentHashMap<>();

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

    /** Counts one GOAWAY sent, by its error code. */
    void goAway(ErrorCode code) {
        goAways.computeIfAbsent(code.name(), name -> new LongAdder()).increment();
    }

    /** GOAWAY frames sent so far, by error code name ({@code NO_ERROR} for graceful ones). */
    public Map<String, Long> goAways() {
        Map<String, Long> counts = new TreeMap<>();
        goAways.forEach((code, count) -> counts.put(code, count.sum()));
        return counts;
    }
}
