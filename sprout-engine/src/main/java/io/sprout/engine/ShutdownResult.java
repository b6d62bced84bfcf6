package io.sprout.engine;

/** How a graceful shutdown ended; mirrors the outcomes Spring Boot reports. */
public enum ShutdownResult {
    /** Every in-flight request finished and no connection is left. */
    IDLE,
    /** {@link SproutServer#stop()} came before the in-flight requests finished. */
    REQUESTS_ACTIVE,
    /** The server was not running, so there was nothing to wait for. */
    IMMEDIATE
}
