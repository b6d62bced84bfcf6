package io.sprout.engine.transport;

import io.sprout.engine.ServerConfig;
import io.sprout.engine.exchange.Counters;
import io.sprout.engine.exchange.ServerContext;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.Semaphore;

/**
 * The listening socket and the loop that accepts from it on a dedicated platform thread.
 *
 * <p>Admission: one permit per open connection ({@code maxConnections}); without a permit the loop stops
 * accepting and new clients wait in the kernel backlog instead of being refused. Accept errors such as EMFILE are
 * backed off exponentially (50 ms to 1.6 s) and logged once per episode, so the loop never spins.
 */
public final class Acceptor implements Runnable {

    /** Receives each accepted connection on the acceptor thread; must not block. */
    @FunctionalInterface
    public interface Handoff {
        void accept(SocketChannel channel) throws IOException;
    }

    private static final System.Logger LOG = System.getLogger(Acceptor.class.getName());
    private static final long FIRST_BACKOFF_MILLIS = 50;
    private static final long MAX_BACKOFF_MILLIS = 1600;

    private final ServerSocketChannel server;
    private final Semaphore permits;
    private final Counters counters;
    private final Handoff handoff;
    private Thread thread;

    private Acceptor(ServerSocketChannel server, int maxConnections, Counters counters, Handoff handoff) {
        this.server = server;
        this.permits = new Semaphore(maxConnections);
        this.counters = counters;
        this.handoff = handoff;
    }

    /** Binds the configured address, port and backlog (blocking accept); admits up to maxConnections. */
    public static Acceptor bind(ServerContext context, Handoff handoff) throws IOException {
        ServerConfig config = context.config();
        ServerSocketChannel server = ServerSocketChannel.open();
        try {
            server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            server.bind(new InetSocketAddress(config.address(), config.port()), config.acceptBacklog());
        } catch (IOException e) {
            server.close();
            throw e;
        }
        return new Acceptor(server, config.maxConnections(), context.counters(), handoff);
    }

    /** Starts the accept loop on its own daemon platform thread. */
    public void start(String name) {
        thread = new Thread(this, name);
        thread.setDaemon(true);
        thread.start();
    }

    public int port() {
        if (!server.isOpen()) {
            return -1;
        }
        try {
            return ((InetSocketAddress) server.getLocalAddress()).getPort();
        } catch (IOException closedMeanwhile) {
            return -1;
        }
    }

    /**
     * Closes the listening socket and waits for the accept loop to end. Closing alone is not enough: while the
     * loop is blocked in {@code accept()} the JDK defers the real close until it wakes, and the port would go on
     * accepting connections in the meantime.
     */
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "Closing the listener failed", e);
        }
        Thread running = thread;
        if (running != null && running != Thread.currentThread()) {
            running.interrupt();
            try {
                running.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Gives back the admission permit of a connection; call exactly once per accepted connection. */
    public void connectionClosed() {
        counters.connectionsOpen.decrement();
        permits.release();
    }

    @Override
    public void run() {
        long backoff = 0;
        while (server.isOpen() && !Thread.currentThread().isInterrupted()) {
            try {
                permits.acquire();
            } catch (InterruptedException stopping) {
                return;
            }
            SocketChannel channel;
            try {
                channel = server.accept();
            } catch (ClosedChannelException closed) {
                // Also ClosedByInterruptException: close() interrupts a blocked accept.
                permits.release();
                return;
            } catch (IOException e) {
                permits.release();
                backoff = backOff(backoff, e);
                continue;
            }
            backoff = 0;
            counters.connectionsAccepted.increment();
            counters.connectionsOpen.increment();
            try {
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                handoff.accept(channel);
            } catch (IOException | RuntimeException e) {
                LOG.log(Level.DEBUG, "Could not set up an accepted connection", e);
                closeQuietly(channel);
                connectionClosed();
            }
        }
    }

    private long backOff(long previous, IOException error) {
        long delay = previous == 0 ? FIRST_BACKOFF_MILLIS : Math.min(previous * 2, MAX_BACKOFF_MILLIS);
        if (previous == 0) {
            LOG.log(Level.WARNING, "Accepting connections failed (" + error + "); backing off");
        }
        try {
            Thread.sleep(delay);
        } catch (InterruptedException stopping) {
            Thread.currentThread().interrupt();
        }
        return delay;
    }

    static void closeQuietly(SocketChannel channel) {
        try {
            channel.close();
        } catch (IOException alreadyBroken) {
            // Nothing more can be done with a channel that fails to close.
        }
    }
}
