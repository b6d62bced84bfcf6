package io.sprout.engine;

import java.util.List;
import java.util.function.Consumer;

/**
 * An embedded HTTP/1.1 server. Create one with {@link io.sprout.engine.server.Sprout#server}, then
 * {@link #start()} it.
 *
 * <p>Every method is thread-safe; {@code start()} and {@code stop()} are idempotent, and a stopped server may be
 * started again (each start builds fresh threads, buffers and counters). Each instance owns its threads, buffers
 * and counters, so several servers can run in one JVM.
 */
public interface SproutServer {

    /**
     * Binds the port and the additional ports and starts serving on all of them; returns once connections are
     * accepted.
     *
     * @throws PortBindException when a port cannot be bound (taken, or the address is not on this host); it names
     *     the port, and no port is listening afterwards
     * @throws java.io.UncheckedIOException when the transport cannot start for another reason
     * @throws IllegalStateException when the TLS configuration's contexts supplier fails or returns {@code null}
     */
    void start();

    /** The main port being listened on, or -1 when not listening. */
    int port();

    /**
     * The ports being listened on: the main port first, then the additional ports in configuration order (ephemeral
     * ones resolved); empty when not listening.
     */
    List<Integer> ports();

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

    /** Whether the server speaks TLS ({@code https}) rather than plaintext HTTP: whether its config has a TLS part. */
    default boolean secure() {
        return config().tls() != null;
    }

    ServerStats stats();
}
