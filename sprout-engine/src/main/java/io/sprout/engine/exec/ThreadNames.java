package io.sprout.engine.exec;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Names one server's platform threads {@code sprout-<port>-<role>} (numbered {@code sprout-8080-worker-3} when a
 * role has several), so that a thread dump tells the servers of one JVM apart: a management port is a second
 * server beside the main one.
 *
 * <p>The port is the main listener's: the configured one until the transport reports the bound one
 * ({@link #bound}), which it does before it starts a thread. With port 0 that matters: the pools make their threads
 * on their first task, which comes from a connection, so every thread is named after the bind and carries the
 * real port. A thread made earlier would carry the configured port (0); none is today. Thread-safe.
 *
 * <p>Public because the server package's {@code EngineServer} and transport's {@code LoopTransport} name their threads
 * with it: exec depends on nothing, so every layer may.
 */
public final class ThreadNames {

    private volatile int port;

    public ThreadNames(int configuredPort) {
        this.port = configuredPort;
    }

    /** The transport has bound its main listener to {@code port}; names made from now on carry it. */
    public void bound(int port) {
        this.port = port;
    }

    /** The name of the server's one thread in {@code role}, such as {@code sprout-8080-nio-acceptor}. */
    public String name(String role) {
        return "sprout-" + port + "-" + role;
    }

    /** A daemon platform thread for the server's one thread in {@code role}; the port is read when it is made. */
    public ThreadFactory daemon(String role) {
        return task -> daemon(task, name(role));
    }

    /**
     * Daemon platform threads named {@code sprout-<port>-<role>-<n>}, counting from 1; the port is read when each
     * thread is made.
     */
    public ThreadFactory daemons(String role) {
        AtomicInteger counter = new AtomicInteger();
        return task -> daemon(task, name(role) + "-" + counter.incrementAndGet());
    }

    private static Thread daemon(Runnable task, String name) {
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        return thread;
    }
}
