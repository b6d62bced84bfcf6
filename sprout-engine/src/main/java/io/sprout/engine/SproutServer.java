package io.sprout.engine;

import java.util.function.Consumer;

/**
 * An embedded HTTP/1.1 server. Create one with {@link #create}, then {@link #start()} it.
 *
 * <p>Every method is thread-safe; {@code start()} and {@code stop()} are idempotent, and a stopped server may be
 * started again (each start builds fresh threads, buffers and counters). Each instance owns its threads, buffers
 * and counters, so several servers can run in one JVM.
 */
public interface SproutServer {

    /** A new, stopped server. */
    static SproutServer create(ServerConfig config, HttpHandler handler) {
        return new EngineServer(config, handler);
    }

    /**
     * Binds the port and starts serving; returns once connections are accepted.
     *
     * @throws java.io.UncheckedIOException wrapping a {@link java.net.BindException} when the port is taken
     */
    void start();

    /** The port being listened on, or -1 when not listening. */
    int port();

    /**
     * Stops accepting at once, closes idle connections, lets in-flight requests finish (their responses carry
     * {@code Connection: close}) and then reports {@link ShutdownResult#IDLE}. Returns immediately; the callback
     * runs later on a server thread, exactly once. A later {@link #stop()} ends the wait with
     * {@link ShutdownResult#REQUESTS_ACTIVE}.
     */
    void shutdownGracefully(Consumer<ShutdownResult> callback);

    /** Closes the listener and every connection now and stops all threads; blocks until they have ended. */
    void stop();

    boolean running();

    ServerConfig config();

    ServerStats stats();
}
