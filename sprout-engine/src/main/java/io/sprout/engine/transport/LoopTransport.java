package io.sprout.engine.transport;

import io.sprout.engine.ExecutionMode;
import io.sprout.engine.exchange.ServerContext;
import io.sprout.engine.exec.ThreadNames;
import io.sprout.engine.exec.Workers;
import io.sprout.engine.tls.ServerTls;

import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.util.List;

/**
 * The transport of both execution modes: the acceptor thread spreads connections from every port round-robin over
 * {@code selectorThreads} event loops, which read request heads (after the TLS handshake, when there is TLS), shed,
 * answer bad heads and linger, and dispatch exchanges to the workers ({@link LoopConnection}). The modes differ only
 * in how a worker moves an exchange's bytes: in {@code nio} it tries the non-blocking channel and parks on its loop
 * when it would block; in {@code hybrid} it tries the same, and when it would block the socket goes into blocking
 * mode and the worker waits in the kernel for the rest of its turn. In both, a connection that waits (for a head,
 * or as a suspended exchange or an idle WebSocket) holds no worker.
 *
 * <p>Public because the server package's {@code EngineServer} creates it: the lifecycle chooses the transport and starts
 * it.
 */
public final class LoopTransport implements Transport {

    /** Twice a second each loop checks its connections' time limits. */
    private static final long SWEEP_PERIOD_NANOS = 500_000_000L;

    private final ServerContext context;
    private final Workers workers;
    private final ServerTls tls;
    private final boolean blockingWorkers;
    private final String name;
    private final ThreadNames names;
    private final ShedQueue shedQueue = new ShedQueue();
    private SelectorLoop[] loops;
    private int nextLoop;
    private Acceptor acceptor;

    /**
     * @param tls the server's TLS, or {@code null} for plaintext
     * @param names names the loops and the acceptor; told the bound port before they start
     */
    public LoopTransport(ServerContext context, Workers workers, ServerTls tls, ExecutionMode mode,
            ThreadNames names) {
        this.context = context;
        this.workers = workers;
        this.tls = tls;
        this.blockingWorkers = mode == ExecutionMode.HYBRID;
        this.name = mode == ExecutionMode.HYBRID ? "hybrid" : "nio";
        this.names = names;
    }

    @Override
    public void start() throws IOException {
        acceptor = Acceptor.bind(context, shedQueue, this::distribute);
        names.bound(acceptor.ports().getFirst());
        loops = new SelectorLoop[context.config().selectorThreads()];
        for (int i = 0; i < loops.length; i++) {
            loops[i] = new SelectorLoop(names.name(name + "-" + (i + 1)), SWEEP_PERIOD_NANOS);
            loops[i].start();
        }
        acceptor.start(names.name(name + "-acceptor"));
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
        LoopConnection connection = new LoopConnection(channel, loop, context, workers, tls, blockingWorkers,
                shedQueue, acceptor::connectionClosed);
        if (admitted) {
            connection.admitted();
            loop.execute(connection::register);
        } else {
            loop.execute(connection::registerRejected);
        }
    }
}
