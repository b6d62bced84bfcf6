package io.sprout.boot.web;

import io.sprout.engine.RequestHandler;

/**
 * What a {@link SproutWebServer} serves over the engine, and the application's part in the server's life: a
 * servlet context ({@link ServletApplication}: servlets load before the port opens, sessions are swept, the context
 * goes with the server) or a reactive {@code HttpHandler} ({@link ReactiveApplication}). The server calls these
 * under its monitor, on the thread that starts, stops or destroys it, except {@link #housekeeping}.
 */
interface ServedApplication {

    /** Serves the engine's requests. */
    RequestHandler handler();

    /** Before the engine listens, at every start; a failure fails the start. */
    void beforeListening();

    /** Every housekeeping interval while the server runs, on its non-daemon housekeeping thread. */
    void housekeeping();

    /** {@code ""} for the root context; {@code null} when the application has none (a reactive one). */
    String contextPath();

    /**
     * Runs {@code task} once the connections the application handed to another protocol (WebSocket) have closed: a
     * graceful shutdown reports only then, so their closing handshakes finish before the server stops.
     */
    void whenUpgradedClosed(Runnable task);

    /** The server is destroyed and will not start again. */
    void destroy();
}
