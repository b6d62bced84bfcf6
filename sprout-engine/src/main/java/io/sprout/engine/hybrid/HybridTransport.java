package io.sprout.engine.hybrid;

import io.sprout.engine.exchange.ErrorResponses;
import io.sprout.engine.exchange.ServerContext;
import io.sprout.engine.exec.Workers;
import io.sprout.engine.transport.Acceptor;
import io.sprout.engine.transport.Transport;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.channels.SocketChannel;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The blocking transport: an acceptor thread hands each connection to one worker, which serves it start to end
 * with plain blocking reads and writes ({@link HybridConnection}). A watchdog enforces write timeouts, which
 * blocking socket writes lack.
 */
public final class HybridTransport implements Transport {

    private static final System.Logger LOG = System.getLogger(HybridTransport.class.getName());

    private final ServerContext context;
    private final Workers workers;
    private final Set<HybridConnection> connections = ConcurrentHashMap.newKeySet();
    private final WriteWatchdog watchdog = new WriteWatchdog(connections);
    private Acceptor acceptor;

    public HybridTransport(ServerContext context, Workers workers) {
        this.context = context;
        this.workers = workers;
    }

    @Override
    public void start() throws IOException {
        acceptor = Acceptor.bind(context, this::serve);
        watchdog.start();
        acceptor.start("sprout-hybrid-acceptor");
    }

    @Override
    public int port() {
        return acceptor == null ? -1 : acceptor.port();
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
        HybridConnection connection = new HybridConnection(channel, context, workers, this::ended);
        connections.add(connection);
        if (!workers.tryExecute(connection)) {
            context.counters().connectionsRejected.increment();
            LOG.log(Level.DEBUG, "Workers overloaded: answering 503");
            try {
                channel.write(ErrorResponses.encode(503, context.date(), context.config().serverHeader()));
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
