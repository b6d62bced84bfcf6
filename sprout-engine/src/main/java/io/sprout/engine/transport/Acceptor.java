package io.sprout.engine.transport;

import io.sprout.engine.ServerConfig;
import io.sprout.engine.exchange.Counters;
import io.sprout.engine.exchange.ServerContext;

import java.io.Closeable;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The listening sockets of one server (the configured port first, then the additional ports) and the loop that
 * accepts from all of them on one dedicated platform thread.
 *
 * <p>Admission ({@code maxConnections}, for all ports together) never leaves a client in the kernel backlog: the
 * loop always accepts, and a connection beyond the limit makes room by shedding ({@link ShedQueue}: the oldest idle
 * keep-alive connection, else the slowest incomplete head) or, with nothing to shed, is handed over as rejected, to
 * be answered 503 with {@code Connection: close} at once. Shedding is asynchronous, so the count may pass the limit
 * by the connections being shed at that moment. One thread with a selector serves every port; ports with
 * connections waiting are served in turn. Accept errors such as EMFILE are backed off ({@link AcceptBackoff}), so
 * the loop never spins.
 */
final class Acceptor implements Runnable {

    /** Receives each accepted connection on the acceptor thread; must not block. */
    @FunctionalInterface
    interface Handoff {
        /**
         * @param admitted {@code false} when the server is at its connection limit with nothing to shed: answer 503
         *     with {@code Connection: close} (or, over TLS, which cannot answer before a handshake, just close)
         */
        void accept(SocketChannel channel, boolean admitted) throws IOException;
    }

    private static final System.Logger LOG = System.getLogger(Acceptor.class.getName());

    private final List<ServerSocketChannel> servers;
    private final Selector selector;
    private final int maxConnections;
    private final int socketSendBuffer;
    private final AtomicInteger open = new AtomicInteger();
    private final ShedQueue shedQueue;
    private final Counters counters;
    private final Handoff handoff;
    private volatile boolean closing;
    private Thread thread;

    private Acceptor(List<ServerSocketChannel> servers, Selector selector, ServerConfig config, ShedQueue shedQueue,
            Counters counters, Handoff handoff) {
        this.servers = servers;
        this.selector = selector;
        this.maxConnections = config.maxConnections();
        this.socketSendBuffer = config.socketSendBuffer();
        this.shedQueue = shedQueue;
        this.counters = counters;
        this.handoff = handoff;
    }

    /**
     * Binds the configured address and backlog on every configured port, in order; nothing is accepted until
     * {@link #start}.
     *
     * @throws BindFailure naming the port that could not be bound; none stays bound
     */
    static Acceptor bind(ServerContext context, ShedQueue shedQueue, Handoff handoff) throws IOException {
        ServerConfig config = context.config();
        List<Integer> ports = new ArrayList<>();
        ports.add(config.port());
        ports.addAll(config.additionalPorts());
        List<ServerSocketChannel> bound = new ArrayList<>(ports.size());
        Selector selector = null;
        try {
            for (int port : ports) {
                bound.add(listen(config, port));
            }
            selector = Selector.open();
            for (ServerSocketChannel server : bound) {
                server.configureBlocking(false);
                server.register(selector, SelectionKey.OP_ACCEPT);
            }
        } catch (IOException e) {
            closeQuietly(selector);
            bound.forEach(Acceptor::closeQuietly);
            throw e;
        }
        return new Acceptor(List.copyOf(bound), selector, config, shedQueue, context.counters(), handoff);
    }

    private static ServerSocketChannel listen(ServerConfig config, int port) throws BindFailure {
        try {
            ServerSocketChannel server = ServerSocketChannel.open();
            try {
                server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
                server.bind(new InetSocketAddress(config.address(), port), config.acceptBacklog());
                return server;
            } catch (IOException e) {
                server.close();
                throw e;
            }
        } catch (IOException e) {
            throw new BindFailure(port, e);
        }
    }

    /** Starts the accept loop on its own daemon platform thread. */
    void start(String name) {
        thread = new Thread(this, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** The bound ports, main first; -1 for each once closed. */
    List<Integer> ports() {
        List<Integer> ports = new ArrayList<>(servers.size());
        for (ServerSocketChannel server : servers) {
            ports.add(port(server));
        }
        return ports;
    }

    private static int port(ServerSocketChannel server) {
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
     * Stops the accept loop, waits for it to end, then closes every listening socket. In that order: a channel
     * registered with a selector is only really closed once the selector lets go of it, and the port would go on
     * accepting connections in the meantime. Idempotent.
     */
    void close() {
        closing = true;
        Thread running = thread;
        if (running != null && running != Thread.currentThread()) {
            // Wakes the selector, or a back-off sleep.
            running.interrupt();
            try {
                running.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        closeQuietly(selector);
        servers.forEach(Acceptor::closeQuietly);
    }

    /** Gives back the admission slot of a connection; call exactly once per accepted connection. */
    void connectionClosed() {
        counters.connectionsOpen.decrement();
        open.decrementAndGet();
    }

    @Override
    public void run() {
        AcceptBackoff backoff = new AcceptBackoff();
        while (!closing) {
            SocketChannel channel;
            try {
                channel = acceptOne();
            } catch (IOException e) {
                backoff.pauseAfter(e);
                continue;
            } catch (ClosedSelectorException closed) {
                return;
            }
            if (channel == null) {
                return;
            }
            backoff.succeeded();
            counters.connectionsAccepted.increment();
            counters.connectionsOpen.increment();
            boolean admitted = open.incrementAndGet() <= maxConnections || shedQueue.shedOne();
            if (!admitted) {
                counters.connectionsRejected.increment();
            }
            try {
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                if (socketSendBuffer > 0) {
                    channel.setOption(StandardSocketOptions.SO_SNDBUF, socketSendBuffer);
                }
                handoff.accept(channel, admitted);
            } catch (IOException | RuntimeException e) {
                LOG.log(Level.DEBUG, "Could not set up an accepted connection", e);
                closeQuietly(channel);
                connectionClosed();
            }
        }
    }

    /**
     * Waits until a port has a connection and accepts it (in blocking mode, whatever the listener's mode). Ports
     * found ready together are served in turn before the selector is asked again.
     *
     * @return the connection, or {@code null} when the acceptor is closing
     */
    private SocketChannel acceptOne() throws IOException {
        while (!closing && !Thread.currentThread().isInterrupted()) {
            Iterator<SelectionKey> ready = selector.selectedKeys().iterator();
            while (ready.hasNext()) {
                SelectionKey key = ready.next();
                ready.remove();
                SocketChannel accepted = ((ServerSocketChannel) key.channel()).accept();
                if (accepted != null) {
                    return accepted;
                }
            }
            selector.select();
        }
        return null;
    }

    static void closeQuietly(Closeable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        } catch (IOException alreadyBroken) {
            // Nothing more can be done with a channel or selector that fails to close.
        }
    }
}
