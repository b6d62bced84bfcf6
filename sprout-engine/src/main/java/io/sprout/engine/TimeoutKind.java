package io.sprout.engine;

/** Which limit on a client's time ran out; see {@link ServerStats#timeouts(TimeoutKind)}. */
public enum TimeoutKind {
    /** The request head did not arrive within {@link Timeouts#requestHead()}: 408, or a quiet close if nothing came. */
    HEAD,
    /** A body read waited past {@link Timeouts#bodyRead()}, or the body past {@link Timeouts#requestBody()}: 408. */
    BODY,
    /** A head or body arrived slower than {@link MinDataRates} allow: 408. */
    RATE,
    /** The client did not take a response within {@link Timeouts#write()}: the connection was aborted. */
    WRITE,
    /** A keep-alive connection waited past {@link Timeouts#idle()} for its next request: closed quietly. */
    IDLE
}
