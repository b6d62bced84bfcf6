package io.sprout.engine.hybrid;

import io.sprout.engine.exchange.ServerContext;
import io.sprout.engine.exec.ThreadNames;
import io.sprout.engine.exec.Workers;
import io.sprout.engine.tls.ServerTls;
import io.sprout.engine.transport.Acceptor;
import io.sprout.engine.transport.SelectorLoop;
import io.sprout.engine.transport.ShedQueue;
import io.sprout.engine.transport.Transport;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The blocking transport: a worker serves each request with plain blocking reads and writes
 * ({@link HybridConnection}). Between requests, and until its first head is complete, a plaintext connection waits
 * on the parking {@link SelectorLoop} without a worker. A watchdog enforces write timeouts, which blocking socket
 * writes lack.
 * With TLS, one worker serves each connection start to end and runs its handshake first ({@link HybridTls}).
 */
public final class HybridTransport implements Transport {

    private static final System.Logger LOG = System.getLogger(HybridTransport.class.getName());

    /** Four times a second the parking loop checks its connections' head and idle limits. */
    private static final long PARKING_SWEEP_NANOS = 250_000_000L;

    private final ServerContext context;
    private final Workers workers;
    private final ServerTls tls;
    private final ThreadNames names;
    private final Set<HybridConnection> connections = ConcurrentHashMap.newKeySet();
    private final WriteWatchdog watchdog = new WriteWatchdog(connections);
    private final ShedQueue shedQueue = new ShedQueue();
    private SelectorLoop parking;
    private Acceptor acceptor;

    /**
     * @param tls the server's TLS, or {@code null} for plaintext
     * @param names names the parking loop, the watchdog and the acceptor; told the bound port before they start
     */
    public HybridTransport(ServerContext context, Workers workers, ServerTls tls, ThreadNames names) {
        this.context = context;
        this.workers = workers;
        this.tls = tls;
        this.names = names;
    }

    @Override
    public void start() throws IOException {
        acceptor = Acceptor.bind(context, shedQueue, this::serve);
        names.bound(acceptor.ports().getFirst());
        parking = new SelectorLoop(names.name("hybrid-parking"), PARKING_SWEEP_NANOS);
        parking.start();
        watchdog.start(names.name("hybrid-watchdog"));
        acceptor.start(names.name("hybrid-acceptor"));
    }

    @Override
    public List<Integer> ports() {
        return acceptor == null ? List.of() : acceptor.ports();
    }

    @Override
    public void closeListener() {
        acceptor.close();
    }

    @Override
    public void closeIdleConnections() {
        // Parked connections on the loop; one on its way there sees the shutdown when it registers.
        parking.execute(parking::closeIdle);
        connections.forEach(HybridConnection::closeIfIdle);
    }

    @Override
    public void stop() {
        acceptor.close();
        parking.stop();
        connections.forEach(HybridConnection::close);
        watchdog.stop();
    }

    private void serve(SocketChannel channel, boolean admitted) throws IOException {
        HybridConnection connection = new HybridConnection(channel, context, workers, tls, parking, shedQueue,
                this::ended);
        connections.add(connection);
        if (!admitted) {
            connection.reject();
        } else if (!connection.admit()) {
            // Only a TLS connection needs a worker at once; no answer is possible before its handshake.
            context.counters().connectionsRejected.increment();
            LOG.log(Level.DEBUG, "Workers overloaded: closing a TLS connection");
            connection.end();
        }
    }

    private void ended(HybridConnection connection) {
        if (connections.remove(connection)) {
            acceptor.connectionClosed();
        }
    }
}
