package io.sprout.engine.exchange;

/**
 * Where an {@link Exchange} is in its life. The phase only moves forward, by compare-and-set in {@link Exchange},
 * and every other class asks the exchange rather than keeping a flag of its own:
 *
 * <pre>
 *   HANDLING ──startAsync()──▶ ASYNC ──upgrade()──▶ UPGRADED
 *      │                        │                     │
 *      │ handler returns        │ complete()/abort()  │ complete()/abort()
 *      ▼                        ▼                     ▼
 *   FINISHING ◀─────────────────┴─────────────────────┘ ──▶ ENDED
 * </pre>
 *
 * An exchange that is {@code ASYNC} or {@code UPGRADED} when its handler returns is suspended: it holds no thread
 * until something completes or aborts it. {@code ENDED} is reached exactly once, from any earlier phase.
 */
enum Phase {
    /** The handler runs and has not asked to outlive its call. */
    HANDLING,
    /** The handler called {@code startAsync()}: the exchange may outlive the handler's call. */
    ASYNC,
    /** {@code 101 Switching Protocols} was sent: the exchange is the raw connection now. */
    UPGRADED,
    /** Completion or an abort has been asked for; nothing can be started any more. */
    FINISHING,
    /** Buffers released, counters updated, listeners told. */
    ENDED;

    /** Whether the exchange may still be suspended or completed by the application. */
    boolean open() {
        return compareTo(FINISHING) < 0;
    }
}
