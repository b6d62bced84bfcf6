package io.sprout.engine.nio;

import io.sprout.engine.exchange.ConnectionChannel;
import io.sprout.engine.exchange.ErrorResponses;
import io.sprout.engine.exchange.HttpConnection;
import io.sprout.engine.exchange.Outcome;
import io.sprout.engine.exchange.ServerContext;
import io.sprout.engine.exec.Workers;
import io.sprout.engine.http.HttpException;
import io.sprout.engine.http.RequestHead;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * One non-blocking connection. The event loop reads request heads; a worker runs each exchange, reading the body
 * and writing the response straight to the channel and parking only when the socket would block.
 *
 * <pre>
 *   accepted ──▶ READING ──head complete──▶ WORKING ──keep-alive──▶ READING
 *                  │  ▲                        │ ▲
 *                  │  └── pipelined head ──────┘ │ worker would block: interest OP_READ / OP_WRITE,
 *                  │      parsed on the worker   │ loop signals readiness, worker retries
 *                  │                             │
 *                  │ bad head (4xx/5xx), 408     ├──response said close──▶ LINGERING ──EOF / 2 s──▶ CLOSED
 *                  ├──────────────────────────────────────────────────────────▲
 *                  └── client EOF, idle timeout, shutdown ───────────────────▶ CLOSED ◀── abort
 * </pre>
 *
 * Threads: {@code state}, the key and the idle/deadline fields belong to the loop thread; the worker touches only
 * the channel, the {@link HttpConnection} (handed over with the dispatch and handed back with {@link #afterWork})
 * and {@link Readiness}. The worker never closes the channel itself; it asks the loop.
 */
final class NioConnection implements ConnectionChannel {

    private enum State { READING, WORKING, LINGERING }

    private static final System.Logger LOG = System.getLogger(NioConnection.class.getName());
    private static final long LINGER_NANOS = 2_000_000_000L;

    private final SocketChannel channel;
    private final EventLoop loop;
    private final ServerContext context;
    private final Workers workers;
    private final Runnable onClose;
    private final HttpConnection http;
    private final Readiness readiness = new Readiness();
    private final InetSocketAddress remote;
    private final InetSocketAddress local;
    private SelectionKey key;
    private State state = State.READING;
    private long idleSince;
    private long headDeadline;
    private long lingerDeadline;
    private boolean countedIdle;
    private volatile boolean closed;

    NioConnection(SocketChannel channel, EventLoop loop, ServerContext context, Workers workers, Runnable onClose)
            throws IOException {
        this.channel = channel;
        this.loop = loop;
        this.context = context;
        this.workers = workers;
        this.onClose = onClose;
        this.remote = (InetSocketAddress) channel.getRemoteAddress();
        this.local = (InetSocketAddress) channel.getLocalAddress();
        this.http = new HttpConnection(context, this, () -> true);
    }

    /** Loop thread: starts watching the new connection. */
    void register() {
        try {
            key = channel.register(loop.selector(), 0, this);
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "Could not register " + remote + ": " + e);
            closed = true;
            closeQuietly();
            onClose.run();
            return;
        }
        loop.added(this);
        enterReading();
    }

    /** Loop thread: the selector reports the socket ready. */
    void onReady(SelectionKey readyKey) {
        if (!readyKey.isValid()) {
            return;
        }
        switch (state) {
            case READING -> readHead();
            case LINGERING -> discard();
            case WORKING -> {
                readyKey.interestOps(0);
                readiness.signal();
            }
        }
    }

    /** Loop thread: enforces the idle timeout, the head deadline and the linger limit. */
    void checkTimeouts(long now) {
        if (closed) {
            return;
        }
        switch (state) {
            case READING -> {
                if (http.headInProgress()) {
                    if (now - headDeadline > 0) {
                        reject(408);
                    }
                } else if (now - idleSince > context.config().timeouts().idle().toNanos()) {
                    close();
                }
            }
            case LINGERING -> {
                if (now - lingerDeadline > 0) {
                    close();
                }
            }
            case WORKING -> {
                // The worker enforces body-read and write timeouts itself while it waits.
            }
        }
    }

    /** Loop thread: closes the connection if it is waiting for a next request. */
    void closeIfIdle() {
        if (state == State.READING && !http.headInProgress()) {
            close();
        }
    }

    /** Loop thread: closes now. Buffers held by a running worker are released when it hands back. */
    void close() {
        if (closed) {
            return;
        }
        closed = true;
        leaveIdle();
        if (key != null) {
            key.cancel();
        }
        closeQuietly();
        readiness.signal();
        loop.removed(this);
        onClose.run();
        if (state != State.WORKING) {
            http.release();
        }
    }

    private void enterReading() {
        if (context.shutdown().draining()) {
            close();
            return;
        }
        state = State.READING;
        long now = System.nanoTime();
        idleSince = now;
        if (http.headInProgress()) {
            headDeadline = now + context.config().timeouts().requestHead().toNanos();
        } else if (!countedIdle) {
            countedIdle = true;
            context.counters().connectionsIdle.increment();
        }
        key.interestOps(SelectionKey.OP_READ);
    }

    private void leaveIdle() {
        if (countedIdle) {
            countedIdle = false;
            context.counters().connectionsIdle.decrement();
        }
    }

    private void readHead() {
        try {
            ByteBuffer target = http.inbound().beforeRead();
            int count = channel.read(target);
            http.inbound().afterRead(count);
            if (count < 0) {
                close();
                return;
            }
            if (count == 0) {
                return;
            }
            if (countedIdle) {
                leaveIdle();
                headDeadline = System.nanoTime() + context.config().timeouts().requestHead().toNanos();
            }
            RequestHead head = http.parseBuffered();
            if (head != null) {
                dispatch(head);
            }
        } catch (HttpException rejected) {
            reject(rejected.status());
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "Reading from " + remote + " failed: " + e);
            close();
        }
    }

    private void dispatch(RequestHead head) {
        state = State.WORKING;
        key.interestOps(0);
        if (!workers.tryExecute(() -> work(head))) {
            context.counters().connectionsRejected.increment();
            state = State.READING;
            reject(503);
        }
    }

    /** Loop thread: answers with an error without blocking, then lingers. */
    private void reject(int status) {
        ByteBuffer response = ErrorResponses.encode(status, context.date(), context.config().serverHeader());
        try {
            int count = response.remaining();
            channel.write(response);
            context.counters().bytesOut.add(count - response.remaining());
            if (response.hasRemaining()) {
                close();
                return;
            }
            channel.shutdownOutput();
            startLingering();
        } catch (IOException e) {
            close();
        }
    }

    private void startLingering() {
        leaveIdle();
        state = State.LINGERING;
        lingerDeadline = System.nanoTime() + LINGER_NANOS;
        http.inbound().release();
        key.interestOps(SelectionKey.OP_READ);
    }

    /** Loop thread: reads and drops what a lingering client still sends; its EOF ends the connection. */
    private void discard() {
        ByteBuffer scratch = http.inbound().beforeRead();
        int count;
        try {
            count = channel.read(scratch);
        } catch (IOException e) {
            count = -1;
        }
        scratch.clear();
        http.inbound().afterRead(0);
        if (count < 0) {
            close();
        }
    }

    /** Worker thread: serves the head and any pipelined heads already buffered. */
    private void work(RequestHead head) {
        Outcome outcome;
        try {
            outcome = http.serve(head);
            while (outcome == Outcome.KEEP_ALIVE && !closed) {
                RequestHead next = http.parseBuffered();
                if (next == null) {
                    break;
                }
                outcome = http.serve(next);
            }
        } catch (HttpException rejected) {
            outcome = sendError(rejected);
        } catch (RuntimeException | Error bug) {
            LOG.log(Level.ERROR, "Serving " + remote + " failed", bug);
            outcome = Outcome.ABORT;
        }
        if (outcome == Outcome.CLOSE) {
            try {
                channel.shutdownOutput();
            } catch (IOException e) {
                outcome = Outcome.ABORT;
            }
        }
        Outcome handedBack = outcome;
        loop.execute(() -> afterWork(handedBack));
    }

    private Outcome sendError(HttpException rejected) {
        try {
            http.sendError(rejected);
            return Outcome.CLOSE;
        } catch (IOException e) {
            return Outcome.ABORT;
        }
    }

    /** Loop thread: the worker hands the connection back. */
    private void afterWork(Outcome outcome) {
        if (closed) {
            http.release();
            return;
        }
        switch (outcome) {
            case KEEP_ALIVE -> enterReading();
            case CLOSE -> startLingering();
            case ABORT -> {
                state = State.READING;
                close();
            }
        }
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
        long deadline = System.nanoTime() + context.config().timeouts().write().toNanos();
        while (src.hasRemaining()) {
            ensureOpen();
            if (channel.write(src) == 0 && !awaitReady(SelectionKey.OP_WRITE, deadline)) {
                loop.execute(this::close);
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

    /** Worker thread: asks the loop to watch for {@code ops} and parks until it reports or the deadline passes. */
    private boolean awaitReady(int ops, long deadline) throws IOException {
        readiness.arm();
        loop.execute(() -> {
            if (!closed && key.isValid()) {
                key.interestOps(ops);
            }
        });
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
        if (closed) {
            throw new ClosedChannelException();
        }
    }

    private void closeQuietly() {
        try {
            channel.close();
        } catch (IOException alreadyBroken) {
            // Nothing more can be done with a channel that fails to close.
        }
    }
}
