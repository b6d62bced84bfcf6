package io.sprout.engine.transport;

import io.sprout.engine.TlsDetails;
import io.sprout.engine.exchange.ConnectionChannel;
import io.sprout.engine.tls.TlsChannel;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The exchange's view of its connection. Blocking reads and writes try the channel directly and, only when that
 * would block, ask the event loop to watch for readiness and park until the loop signals, the deadline passes or the
 * connection closes. In hybrid mode the first such wait of a worker's turn puts the socket in blocking mode instead
 * ({@link SocketIo}), and from then on the worker blocks in the kernel rather than parking on the loop: a read until
 * its deadline (the socket timeout), a write until the loop's sweep closes a connection whose write is overdue.
 * Readiness tasks ({@link #whenReadable}, {@link #whenWritable}) wait without a thread: the loop runs them when the
 * socket is ready, its sweep when their deadline passes, and {@link #closed()} when the connection closes. The worker
 * never touches the selection key itself.
 *
 * <p>Bytes move through {@code io}: the socket channel itself, or the connection's {@link TlsChannel} over it, as
 * the transport chose at accept time. Over TLS a whole record may already be buffered that the socket will never
 * report, so a readiness wait asks the TLS layer first. File bytes go from the file to the socket itself
 * ({@link #transferNow}), so only where there is no TLS.
 */
final class WorkerChannel implements ConnectionChannel {

    private final SocketChannel socket;
    private final ByteChannel io;
    private final TlsChannel tls;
    private final SocketIo raw;
    private final LoopConnection connection;
    private final SelectorLoop loop;
    private final long writeTimeoutNanos;
    private final InetSocketAddress remote;
    private final InetSocketAddress local;
    private final Readiness readiness = new Readiness();
    private final ReadinessTask onReadable = new ReadinessTask(SelectionKey.OP_READ);
    private final ReadinessTask onWritable = new ReadinessTask(SelectionKey.OP_WRITE);
    private volatile int blockedOps;
    /**
     * Hybrid mode: whether a wait may put the socket in blocking mode, which only the worker serving a dispatched
     * head may do, until its exchange suspends. A suspended exchange's tasks and its continuation wait on the loop
     * as in nio: its readiness tasks need the loop to watch the socket.
     */
    private volatile boolean mayBlock;
    private volatile boolean readCutShort;

    /**
     * @param socket the connection's socket
     * @param io the socket channel (in hybrid mode, its {@code raw} bytes), or the TLS layer over it
     * @param tls the TLS layer when there is one, else {@code null}
     * @param raw in hybrid mode the socket's bytes, which may be in blocking mode; {@code null} in nio mode
     */
    WorkerChannel(SocketChannel socket, ByteChannel io, TlsChannel tls, SocketIo raw, LoopConnection connection,
            SelectorLoop loop, Duration writeTimeout, InetSocketAddress remote) throws IOException {
        this.socket = socket;
        this.io = io;
        this.tls = tls;
        this.raw = raw;
        this.connection = connection;
        this.loop = loop;
        this.writeTimeoutNanos = writeTimeout.toNanos();
        this.remote = remote;
        this.local = (InetSocketAddress) socket.getLocalAddress();
    }

    @Override
    public int read(ByteBuffer dst, long timeoutMillis) throws IOException {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        while (true) {
            ensureOpen();
            boolean blocking = raw != null && raw.blocking();
            if (blocking) {
                raw.readTimeout(TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
            }
            int count = io.read(dst);
            if (count <= 0 && readCutShort) {
                // In blocking mode the shut input ends the read as if the client had: it is the cut, not an end.
                throw new SocketTimeoutException("The read was cut short: its worker was needed");
            }
            if (count != 0) {
                return count;
            }
            if (blocking ? System.nanoTime() - deadline >= 0 : !awaitReady(SelectionKey.OP_READ, deadline)
                    || readCutShort) {
                throw new SocketTimeoutException("No request body bytes within " + timeoutMillis + " ms");
            }
        }
    }

    @Override
    public int readNow(ByteBuffer dst) throws IOException {
        ensureOpen();
        return raw != null && raw.blocking() ? 0 : io.read(dst);
    }

    @Override
    public void write(ByteBuffer src) throws IOException {
        long deadline = System.nanoTime() + writeTimeoutNanos;
        while (src.hasRemaining()) {
            ensureOpen();
            if (io.write(src) == 0 && !awaitReady(SelectionKey.OP_WRITE, deadline)) {
                connection.writeTimedOut();
                loop.execute(connection::close);
                throw new SocketTimeoutException("The client did not read the response in time");
            }
        }
    }

    @Override
    public int writeNow(ByteBuffer src) throws IOException {
        ensureOpen();
        int total = 0;
        int count;
        while (src.hasRemaining() && (count = io.write(src)) > 0) {
            total += count;
        }
        return total;
    }

    @Override
    public boolean sendsFiles() {
        return tls == null && (raw == null || !raw.blocking());
    }

    @Override
    public long transferNow(FileChannel file, long position, long count) throws IOException {
        if (!sendsFiles()) {
            throw new IllegalStateException("File bytes go straight to the socket only without TLS, non-blocking");
        }
        ensureOpen();
        return file.transferTo(position, count, socket);
    }

    @Override
    public void whenReadable(long deadlineNanos, Runnable task) {
        if (tls != null && tls.hasBufferedInput()) {
            // Already-received records: the socket will not report them, and running the task only queues work.
            task.run();
            return;
        }
        arm(onReadable, deadlineNanos, task);
    }

    @Override
    public void whenWritable(long deadlineNanos, Runnable task) {
        arm(onWritable, deadlineNanos, task);
    }

    /** Hybrid mode: from now on the exchange waits without a worker, so its socket leaves blocking mode. */
    @Override
    public void exchangeSuspended() {
        mayBlock = false;
        connection.exchangeSuspended();
    }

    /** Worker: a dispatched head is to be served; in hybrid mode its waits may block in the kernel. */
    void turnBegins() {
        mayBlock = raw != null;
    }

    /**
     * Wakes the parked reader, which sees the flag; set first, so a reader that has yet to park sees it too. A read
     * blocked in the kernel (hybrid) is woken by shutting the socket's input; the output stays open for the answer.
     */
    @Override
    public void cutReadShort() {
        readCutShort = true;
        readiness.signal();
        if (raw != null && raw.blocking()) {
            raw.shutdownInput();
        }
    }

    @Override
    public void abort() {
        loop.execute(connection::close);
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return remote;
    }

    @Override
    public InetSocketAddress localAddress() {
        return local;
    }

    @Override
    public TlsDetails tls() {
        return tls == null ? null : tls.details();
    }

    /** The interest the loop must keep while a worker or a readiness task owns the connection. */
    int wantedOps() {
        return blockedOps | onReadable.ops() | onWritable.ops();
    }

    /** Loop thread: the socket reported {@code readyOps}: wakes a parked caller and runs the due readiness tasks. */
    void ready(int readyOps) {
        readiness.signal();
        if ((readyOps & (SelectionKey.OP_READ | SelectionKey.OP_WRITE)) != 0) {
            onReadable.fireIf(readyOps);
            onWritable.fireIf(readyOps);
        }
    }

    /** Loop thread (sweep): runs readiness tasks whose deadline has passed. */
    void expire(long now) {
        onReadable.fireIfOverdue(now);
        onWritable.fireIfOverdue(now);
    }

    /** The connection closed: wakes a parked caller and runs every readiness task, which will see it closed. */
    void closed() {
        readiness.signal();
        onReadable.fire();
        onWritable.fire();
    }

    private void arm(ReadinessTask slot, long deadlineNanos, Runnable task) {
        slot.set(deadlineNanos, task);
        if (connection.isClosed()) {
            slot.fire();
            return;
        }
        loop.execute(connection::watchForWorker);
    }

    private boolean awaitReady(int ops, long deadline) throws IOException {
        if (mayBlock) {
            return waitInTheKernelFromNowOn(ops, deadline);
        }
        readiness.arm();
        if (ops == SelectionKey.OP_READ && readCutShort) {
            // Cut short before the arm above, whose reset would otherwise swallow the signal.
            return false;
        }
        blockedOps = ops;
        loop.execute(connection::watchForWorker);
        long left = deadline - System.nanoTime();
        try {
            boolean ready = left > 0 && readiness.await(left);
            ensureOpen();
            return ready;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("Interrupted while waiting for the client");
        } finally {
            blockedOps = 0;
        }
    }

    /**
     * Hybrid mode, the first time this turn would wait: instead of parking until the loop reports readiness, the
     * worker waits in the kernel from now on. The loop lets go of the socket's key; once the selector has dropped it,
     * the socket goes into blocking mode and the caller tries again. An exchange whose bytes are all there and whose
     * response the socket takes at once never switches, so it spends no system calls on modes and registrations.
     *
     * @return whether the socket is now in blocking mode; {@code false} if the read was cut short or the deadline
     *     passed first
     */
    private boolean waitInTheKernelFromNowOn(int ops, long deadline) throws IOException {
        loop.execute(connection::releaseKeyToBlockingWorker);
        try {
            while (true) {
                readiness.arm();
                if (!socket.isRegistered()) {
                    break;
                }
                ensureOpen();
                long left = deadline - System.nanoTime();
                if (ops == SelectionKey.OP_READ && readCutShort || left <= 0 || !readiness.await(left)) {
                    return false;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("Interrupted while waiting for the client");
        }
        ensureOpen();
        raw.blocking(true);
        return true;
    }

    /** Loop thread, hybrid mode: the socket has left the selector, so a worker waiting to block may go on. */
    void keyReleased() {
        readiness.signal();
    }

    private void ensureOpen() throws ClosedChannelException {
        if (connection.isClosed()) {
            throw new ClosedChannelException();
        }
    }
}
