package io.sprout.engine.nio;

import io.sprout.engine.exchange.ServerContext;
import io.sprout.engine.exec.Workers;
import io.sprout.engine.transport.Acceptor;
import io.sprout.engine.transport.Transport;

import java.io.IOException;
import java.nio.channels.SocketChannel;

/**
 * The selector transport: an acceptor thread spreads connections round-robin over {@code selectorThreads} event
 * loops, which read request heads and dispatch exchanges to the workers.
 */
public final class NioTransport implements Transport {

    private final ServerContext context;
    private final Workers workers;
    private EventLoop[] loops;
    private int nextLoop;
    private Acceptor acceptor;

    public NioTransport(ServerContext context, Workers workers) {
        this.context = context;
        this.workers = workers;
    }

    @Override
    public void start() throws IOException {
        acceptor = Acceptor.bind(context, this::distribute);
        loops = new EventLoop[context.config().selectorThreads()];
        for (int i = 0; i < loops.length; i++) {
            loops[i] = new EventLoop("sprout-nio-loop-" + (i + 1));
            loops[i].start();
        }
        acceptor.start("sprout-nio-acceptor");
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
        for (EventLoop loop : loops) {
            loop.execute(loop::closeIdle);
        }
    }

    @Override
    public void stop() {
        acceptor.close();
        for (EventLoop loop : loops) {
            loop.stop();
        }
    }

    /** Acceptor thread: hands the connection to the next loop, which registers it. */
    private void distribute(SocketChannel channel) throws IOException {
        channel.configureBlocking(false);
        EventLoop loop = loops[nextLoop];
        nextLoop = (nextLoop + 1) % loops.length;
        NioConnection connection = new NioConnection(channel, loop, context, workers, acceptor::connectionClosed);
        loop.execute(connection::register);
    }
}
