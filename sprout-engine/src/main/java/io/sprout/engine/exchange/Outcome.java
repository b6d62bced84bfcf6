package io.sprout.engine.exchange;

/**
 * What a transport does with a connection after an exchange.
 *
 * <p>Public because transport ({@code LoopConnection}, {@code ConnectionWorker}) decides from it what a connection does
 * next: the exchange reports, the transport acts.
 */
public enum Outcome {
    /** The response is complete and the connection may carry another request. */
    KEEP_ALIVE,
    /** The response is complete (it said {@code Connection: close}); close the connection cleanly. */
    CLOSE,
    /** The response could not be completed; drop the connection at once. */
    ABORT,
    /**
     * The handler suspended the exchange and returned: the worker is free and the connection belongs to the
     * exchange until it ends, when the transport's {@link HttpConnection.Continuation} gets the real outcome.
     */
    SUSPENDED
}
