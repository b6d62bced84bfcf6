package io.sprout.engine.hybrid;

import io.sprout.engine.exchange.ErrorResponses;
import io.sprout.engine.exchange.ServerContext;
import io.sprout.engine.exec.Workers;
import io.sprout.engine.tls.ServerTls;
import io.sprout.engine.transport.Acceptor;
import io.sprout.engine.transport.Transport;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The blocking transport: the acceptor thread hands each connection, from any port, to one worker, which serves it
 * start to end with plain blocking reads and writes ({@link HybridConnection}). A watchdog enforces write timeouts,
 * which blocking socket writes lack.
 * With TLS, each connection's worker runs its handshake first ({@link HybridTls}).
 */
public final class HybridTransport implements Transport {

    private static final System.Logger LOG = System.getLogger(HybridTransport.class.getName());

    private final ServerContext context;
    private final Workers workers;
    private final ServerTls tls;
    private final Set<HybridConnection> connections = ConcurrentHashMap.newKeySet();
    private final WriteWatchdog watchdog = new WriteWatchdog(connections);
    private Acceptor acceptor;

    /** @param tls the server's TLS, or {@code null} for plaintext */
    public HybridTransport(ServerContext context, Workers workers, ServerTls tls) {
        this.context = context;
        this.workers = workers;
        this.tls = tls;
    }

    @Override
    public void start() throws IOException {
        acceptor = Acceptor.bind(context, this::serve);
        watchdog.start();
        acceptor.start("sprout-hybrid-acceptor");
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
        connections.forEach(HybridConnection::closeIfIdle);
    }

    @Override
    public void stop() {
        acceptor.close();
        connections.forEach(HybridConnection::close);
        watchdog.stop();
    }

    private void serve(SocketChannel channel) throws IOException {
        HybridConnection connection = new HybridConnection(channel, context, workers, tls, this::ended);
        connections.add(connection);
        if (!workers.tryExecute(connection)) {
            context.counters().connectionsRejected.increment();
            LOG.log(Level.DEBUG, "Workers overloaded: answering 503");
            try {
                if (tls == null) {
                    // Over TLS no answer is possible before a handshake, which needs the worker there is not.
                    channel.write(ErrorResponses.encode(503, context.date(), context.config().serverHeader()));
                }
            } finally {
                connection.close();
                ended(connection);
            }
        }
    }

    private void ended(HybridConnection connection) {
        if (connections.remove(connection)) {
            acceptor.connectionClosed();
        }
    }
}
