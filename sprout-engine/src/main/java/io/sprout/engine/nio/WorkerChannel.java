package io.sprout.engine.nio;

import io.sprout.engine.exchange.ConnectionChannel;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.time.Duration;

/**
 * The blocking view of a non-blocking connection, for the worker running an exchange: it tries the channel
 * directly and, only when that would block, asks the event loop to watch for readiness and parks until the loop
 * signals, the deadline passes or the connection closes. The worker never touches the selection key itself.
 */
final class WorkerChannel implements ConnectionChannel {

    private final SocketChannel channel;
    private final NioConnection connection;
    private final EventLoop loop;
    private final long writeTimeoutNanos;
    private final InetSocketAddress remote;
    private final InetSocketAddress local;
    private final Readiness readiness = new Readiness();

    WorkerChannel(SocketChannel channel, NioConnection connection, EventLoop loop, Duration writeTimeout,
            InetSocketAddress remote, InetSocketAddress local) {
        this.channel = channel;
        this.connection = connection;
        this.loop = loop;
        this.writeTimeoutNanos = writeTimeout.toNanos();
        this.remote = remote;
        this.local = local;
    }

    @Override
    public int read(ByteBuffer dst, long timeoutMillis) throws IOException {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        while (true) {
            ensureOpen();
            int count = channel.read(dst);
            if (count != 0) {
                return count;
            }
            if (!awaitReady(SelectionKey.OP_READ, deadline)) {
                throw new SocketTimeoutException("No request body bytes within " + timeoutMillis + " ms");
            }
        }
    }

    @Override
    public void write(ByteBuffer src) throws IOException {
        long deadline = System.nanoTime() + writeTimeoutNanos;
        while (src.hasRemaining()) {
            ensureOpen();
            if (channel.write(src) == 0 && !awaitReady(SelectionKey.OP_WRITE, deadline)) {
                loop.execute(connection::close);
                throw new SocketTimeoutException("The client did not read the response in time");
            }
        }
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return remote;
    }

    @Override
    public InetSocketAddress localAddress() {
        return local;
    }

    /** Loop thread: the socket is ready, or the connection closed; wakes a parked worker. */
    void signal() {
        readiness.signal();
    }

    private boolean awaitReady(int ops, long deadline) throws IOException {
        readiness.arm();
        loop.execute(() -> connection.watchForWorker(ops));
        long left = deadline - System.nanoTime();
        try {
            boolean ready = left > 0 && readiness.await(left);
            ensureOpen();
            return ready;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("Interrupted while waiting for the client");
        }
    }

    private void ensureOpen() throws ClosedChannelException {
        if (connection.isClosed()) {
            throw new ClosedChannelException();
        }
    }
}
