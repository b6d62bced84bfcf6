package io.sprout.engine;

import java.util.Map;

/**
 * Live counters of one server, safe to read from any thread at any time (each value is read on its own, so a set
 * of values is not one atomic snapshot). Counters only grow; gauges go up and down.
 */
public interface ServerStats {

    /** Gauge: connections currently open. */
    long connectionsOpen();

    /** Gauge: open connections waiting, between requests, for the next one. */
    long connectionsIdle();

    /** Counter: connections accepted since start. */
    long connectionsAccepted();

    /**
     * Counter: connections closed unanswered or with 503 because the server was overloaded: its workers and their
     * queue were full, or it was at {@code maxConnections} with no connection to shed.
     */
    long connectionsRejected();

    /**
     * Counter: connections closed to admit new ones at {@code maxConnections}: idle keep-alive connections (oldest
     * first), then connections with an incomplete request head (slowest first, answered 503).
     */
    long connectionsShed();

    /** Counter: connections or exchanges ended because the client ran out of the time {@code kind} allows. */
    long timeouts(TimeoutKind kind);

    /** Gauge: requests whose handler has been called and whose response is not complete. */
    long requestsActive();

    /**
     * Gauge: exchanges that hold no thread: suspended by their handler (also counted in {@link #requestsActive()})
     * or upgraded to another protocol.
     */
    long exchangesDetached();

    /**
     * Counter: tasks of suspended exchanges (completions, callbacks, timeouts) that the workers refused, their pool
     * and queue being full, and that the server's few rescue threads ({@code sprout-<port>-rescue-N}, with a
     * bounded queue of their own) ran instead. Always 0 with virtual threads while the server runs.
     */
    long tasksRescued();

    /**
     * Counter: suspended exchanges aborted (their connection closed) because neither the workers nor the rescue
     * threads could take their next task. Their end listeners hear of the abort as of any other.
     */
    long exchangesRefused();

    /** Counter: requests whose head was parsed, including those answered with an error. */
    long requestsTotal();

    /**
     * Counter: requests answered 408 and closed before their body's grace period ended, because work waited for a
     * platform worker while their worker was blocked on a body arriving below the minimum rate (the slowest first).
     * Also counted as {@link TimeoutKind#RATE} timeouts. Always 0 with virtual threads.
     */
    long requestsShed();

    /** Counter: bytes read from clients (over TLS, the decrypted bytes). */
    long bytesIn();

    /** Counter: bytes written to clients (over TLS, before encryption). */
    long bytesOut();

    /** Counter: buffers handed out by the pool. */
    long bufferLeases();

    /** Counter: leases served from a pooled buffer. */
    long bufferHits();

    /** Counter: leases that had to allocate a new buffer. */
    long bufferMisses();

    /** Gauge: buffers currently leased and not yet released. */
    long buffersLeased();

    /** Gauge: workers running a task. */
    long workersBusy();

    /** Gauge: worker threads that exist (pool threads, or live virtual workers). */
    long workersCurrent();

    /** The platform pool size, or -1 for virtual threads (unbounded). */
    long workersMax();

    /** Gauge: HTTP/2 streams open now, their exchanges running or their requests still arriving. */
    default long http2StreamsActive() {
        return 0;
    }

    /** Counter: HTTP/2 streams reset by clients ({@code RST_STREAM} received). */
    default long http2ResetsReceived() {
        return 0;
    }

    /** Counter: HTTP/2 streams the server reset ({@code RST_STREAM} sent: refused, cancelled, malformed, failed). */
    default long http2ResetsSent() {
        return 0;
    }

    /**
     * Counter: HTTP/2 connections the server ended with GOAWAY, by error code name: {@code NO_ERROR} for graceful
     * ends (shutdown, idle), {@code ENHANCE_YOUR_CALM} for a client over a rate control's budget, and the protocol
     * errors by theirs.
     */
    default Map<String, Long> http2GoAways() {
        return Map.of();
    }
}
