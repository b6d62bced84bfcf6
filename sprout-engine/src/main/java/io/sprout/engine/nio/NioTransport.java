package io.sprout.engine.nio;

import io.sprout.engine.exchange.ServerContext;
import io.sprout.engine.exec.ThreadNames;
import io.sprout.engine.exec.Workers;
import io.sprout.engine.tls.ServerTls;
import io.sprout.engine.transport.Acceptor;
import io.sprout.engine.transport.SelectorLoop;
import io.sprout.engine.transport.ShedQueue;
import io.sprout.engine.transport.Transport;

import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.util.List;

/**
 * The selector transport: the acceptor thread spreads connections from every port round-robin over
 * {@code selectorThreads} event loops, which read request heads and dispatch exchanges to the workers.
 * With TLS each connection gets its {@link io.sprout.engine.tls.TlsChannel} at accept time, and its loop drives the
 * handshake first.
 */
public final class NioTransport implements Transport {

    /** Twice a second each loop checks its connections' time limits. */
    private static final long SWEEP_PERIOD_NANOS = 500_000_000L;

    private final ServerContext context;
    private final Workers workers;
    private final ServerTls tls;
    private final ThreadNames names;
    private final ShedQueue shedQueue = new ShedQueue();
    private SelectorLoop[] loops;
    private int nextLoop;
    private Acceptor acceptor;

    /**
     * @param tls the server's TLS, or {@code null} for plaintext
     * @param names names the loops and the acceptor; told the bound port before they start
     */
    public NioTransport(ServerContext context, Workers workers, ServerTls tls, ThreadNames names) {
        this.context = context;
        this.workers = workers;
        this.tls = tls;
        this.names = names;
    }

    @Override
    public void start() throws IOException {
        acceptor = Acceptor.bind(context, shedQueue, this::distribute);
        names.bound(acceptor.ports().getFirst());
        loops = new SelectorLoop[context.config().selectorThreads()];
        for (int i = 0; i < loops.length; i++) {
            loops[i] = new SelectorLoop(names.name("nio-" + (i + 1)), SWEEP_PERIOD_NANOS);
            loops[i].start();
        }
        acceptor.start(names.name("nio-acceptor"));
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
        for (SelectorLoop loop : loops) {
            loop.execute(loop::closeIdle);
        }
    }

    @Override
    public void stop() {
        acceptor.close();
        for (SelectorLoop loop : loops) {
            loop.stop();
        }
    }

    /** Acceptor thread: hands the connection to the next loop, which registers it (or answers 503 if not admitted). */
    private void distribute(SocketChannel channel, boolean admitted) throws IOException {
        channel.configureBlocking(false);
        SelectorLoop loop = loops[nextLoop];
        nextLoop = (nextLoop + 1) % loops.length;
        NioConnection connection = new NioConnection(channel, loop, context, workers, tls, shedQueue,
                acceptor::connectionClosed);
        if (admitted) {
            connection.admitted();
            loop.execute(connection::register);
        } else {
            loop.execute(connection::registerRejected);
        }
    }
}
