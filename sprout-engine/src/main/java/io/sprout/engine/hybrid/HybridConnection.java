package io.sprout.engine.hybrid;

import io.sprout.engine.TimeoutKind;
import io.sprout.engine.TlsDetails;
import io.sprout.engine.exchange.ErrorResponses;
import io.sprout.engine.exchange.HeadClock;
import io.sprout.engine.exchange.HttpConnection;
import io.sprout.engine.exchange.Outcome;
import io.sprout.engine.exchange.ServerContext;
import io.sprout.engine.exec.Workers;
import io.sprout.engine.http.HttpException;
import io.sprout.engine.http.RequestHead;
import io.sprout.engine.tls.ServerTls;
import io.sprout.engine.transport.SelectorLoop;
import io.sprout.engine.transport.ShedQueue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * One connection served with plain blocking reads and writes while a worker serves one of its requests.
 *
 * <p>Plaintext: the connection waits for each request head parked on the parking {@link SelectorLoop}
 * ({@link ParkedConnection}), costing no worker and no pooled buffer while idle; a worker takes it over, in blocking
 * mode, only once a whole head has arrived ({@link #serveParked}), serves it and any pipelined heads already
 * buffered, and parks it again. So a slow or idle client never holds a platform worker.
 *
 * <p>TLS, chosen at accept time: one worker serves the connection start to end, the handshake first, then
 * read a head, serve it, repeat; the exchange reads and writes through {@link HybridTls}. Its idle wait between
 * requests is sliced so that, while a platform pool is under pressure, an idle connection gives its worker back.
 * This is the documented cost of TLS in hybrid mode: a TLS client holds a worker (and a buffer) while it is slow.
 *
 * <p>In both, the head limits are {@link HeadClock}'s: the first head is due from the accept, time spent waiting for
 * a worker included. When a handler suspends its exchange the worker returns and the connection stays open; the
 * exchange's continuation then resumes this same loop on whichever worker ends it.
 *
 * <p>This class is the connection's raw byte channel: without TLS the exchange uses it directly.
 */
final class HybridConnection implements Runnable, BlockingChannel {

    private static final System.Logger LOG = System.getLogger(HybridConnection.class.getName());
    private static final long LINGER_MILLIS = 2000;
    private static final int LINGER_MAX_BYTES = 1 << 20;

    private final SocketChannel channel;
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final ServerContext context;
    private final Workers workers;
    private final Consumer<HybridConnection> onEnd;
    private final HttpConnection http;
    private final InetSocketAddress remote;
    private final InetSocketAddress local;
    private final HeadClock clock;
    private final long acceptedAt = System.nanoTime();
    private final AtomicBoolean ended = new AtomicBoolean();
    /** The TLS layer, or {@code null} for plaintext. */
    private final HybridTls tls;
    /** Where a plaintext connection waits for its heads; {@code null} over TLS. */
    private final ParkedConnection parked;
    private final BlockingHeads blockingHeads;
    /** Until its handshake is done a TLS connection serves nobody: graceful shutdown closes it as if idle. */
    private volatile boolean handshaking;
    private volatile long writeDeadlineNanos;
    private volatile ReadWait readWait;
    private volatile boolean readCutShort;

    /**
     * @param serverTls the server's TLS, or {@code null} for a plaintext connection
     * @param parking where a plaintext connection waits for its heads
     */
    HybridConnection(SocketChannel channel, ServerContext context, Workers workers, ServerTls serverTls,
            SelectorLoop parking, ShedQueue shedQueue, Consumer<HybridConnection> onEnd) throws IOException {
        this.channel = channel;
        this.socket = channel.socket();
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
        this.context = context;
        this.workers = workers;
        this.onEnd = onEnd;
        this.remote = (InetSocketAddress) channel.getRemoteAddress();
        this.local = (InetSocketAddress) channel.getLocalAddress();
        this.tls = serverTls == null ? null : new HybridTls(this, serverTls);
        this.handshaking = tls != null;
        // Keep-alive costs a plaintext connection no worker; a TLS one keeps its worker, so not under pressure.
        this.http = new HttpConnection(context, tls == null ? this : tls,
                () -> serverTls == null || !workers.underPressure(), this::resumed);
        this.parked = tls == null ? new ParkedConnection(this, channel, http, workers, parking, shedQueue) : null;
        this.clock = parked != null ? parked.clock()
                : new HeadClock(context.config().timeouts(), context.config().minDataRates());
        this.blockingHeads = new BlockingHeads(http, clock, workers, shedQueue, this::close);
    }

    /** Acceptor thread: a plaintext connection parks until its first head; a TLS one needs a worker at once. */
    boolean admit() throws IOException {
        if (parked != null) {
            parked.admitted(acceptedAt);
            return true;
        }
        clock.accepted(acceptedAt);
        return workers.tryExecute(this);
    }

    /** Acceptor thread: at the connection limit with nothing to shed: 503 (plaintext), or just close (TLS). */
    void reject() throws IOException {
        if (parked != null) {
            parked.rejected();
        } else {
            end();
        }
    }

    /** Graceful shutdown: closes a TLS connection that waits for a next request (parked ones: the parking loop). */
    void closeIfIdle() {
        if (parked == null && (blockingHeads.idle() || handshaking)) {
            close();
        }
    }

    /** TLS only: the worker's whole life with the connection. */
    @Override
    public void run() {
        HybridTls.Handshake handshake = tls.handshake();
        handshaking = false;
        switch (handshake) {
            case SECURED -> proceed(null, null);
            case PLAINTEXT_HTTP -> {
                answerPlaintextHttp();
                end();
            }
            case FAILED -> end();
        }
    }

    /** Worker thread: a parked connection's whole head has arrived; serve it in blocking mode. */
    void serveParked(RequestHead head) {
        try {
            channel.configureBlocking(true);
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "Connection from " + remote + " ended: " + e);
            end();
            return;
        }
        proceed(head, null);
    }

    /** A plaintext client on the TLS port: told so in plaintext, as Tomcat and Jetty do, then closed. */
    private void answerPlaintextHttp() {
        try {
            write(ErrorResponses.encode(400, context.date(), context.config().serverHeader(),
                    "This port speaks TLS: use https."));
            lingerAndClose();
        } catch (IOException clientGone) {
            LOG.log(Level.DEBUG, "Could not answer the plaintext client " + remote + ": " + clientGone);
        }
    }

    /** Worker thread: a suspended exchange ended; carry on as after any exchange. */
    private void resumed(Outcome outcome) {
        proceed(null, outcome);
    }

    /** Serves until the connection closes (then releases it), parks or an exchange suspends. */
    private void proceed(RequestHead first, Outcome previous) {
        boolean released = false;
        try {
            released = serveUntilReleased(first, previous);
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "Connection from " + remote + " ended: " + e);
        } finally {
            if (!released) {
                end();
            }
        }
    }

    /** Closes the connection and returns what it holds; once, by whoever owns it last. */
    void end() {
        if (!ended.compareAndSet(false, true)) {
            return;
        }
        close();
        http.release();
        if (tls != null) {
            tls.release();
        }
        onEnd.accept(this);
    }

    /**
     * @return whether the connection stays open without this worker: an exchange suspended, or it was parked to
     *     wait for its next head
     */
    private boolean serveUntilReleased(RequestHead first, Outcome previous) throws IOException {
        if (previous != null && !carryOn(previous)) {
            return false;
        }
        RequestHead head = first;
        boolean firstHead = previous == null && first == null;
        while (true) {
            if (head == null) {
                try {
                    head = http.parseBuffered();
                    if (head == null && mayPark()) {
                        parked.parkAgain();
                        return true;
                    }
                    if (head == null) {
                        head = blockingHeads.next(firstHead);
                    }
                } catch (HttpException rejected) {
                    http.sendError(rejected);
                    lingerAndClose();
                    return false;
                }
                firstHead = false;
                if (head == null) {
                    return false;
                }
            }
            Outcome outcome = http.serve(head);
            head = null;
            if (outcome == Outcome.SUSPENDED) {
                return true;
            }
            if (!carryOn(outcome)) {
                return false;
            }
        }
    }

    /**
     * Whether the wait for the next head can happen parked, off this worker: for a plaintext connection, unless an
     * earlier non-blocking read still runs on a worker of its own (the channel must stay blocking for it).
     */
    private boolean mayPark() {
        return parked != null && readWait == null;
    }

    /** After an exchange: whether the connection carries another request (else it has been closed cleanly). */
    private boolean carryOn(Outcome outcome) {
        if (outcome == Outcome.CLOSE) {
            lingerAndClose();
        }
        return outcome == Outcome.KEEP_ALIVE;
    }

    @Override
    public int read(ByteBuffer dst, long timeoutMillis) throws IOException {
        ReadWait waited = readWait;
        if (waited != null) {
            int count;
            try {
                count = waited.takeInto(dst, timeoutMillis);
            } finally {
                if (waited.taken()) {
                    readWait = null;
                }
            }
            if (count != 0) {
                return count;
            }
        }
        socket.setSoTimeout((int) Math.max(1, Math.min(timeoutMillis, Integer.MAX_VALUE)));
        int count = in.read(dst.array(), dst.arrayOffset() + dst.position(), dst.remaining());
        if (readCutShort) {
            throw new SocketTimeoutException("The read was cut short: a worker was needed");
        }
        if (count > 0) {
            dst.position(dst.position() + count);
        }
        return count;
    }

    @Override
    public void write(ByteBuffer src) throws IOException {
        writeDeadlineNanos = System.nanoTime() + context.config().timeouts().write().toNanos();
        try {
            out.write(src.array(), src.arrayOffset() + src.position(), src.remaining());
            src.position(src.limit());
        } finally {
            writeDeadlineNanos = 0;
        }
    }

    /**
     * A blocking socket cannot be polled, so the wait is a blocking read ({@link ReadWait}) on a worker of its own,
     * and the next {@link #read} takes what it got. Waiting inside the task would hold the exchange's task slot, and
     * its other tasks (a timeout, a shutdown task, completion from another thread) would wait for the client too.
     * Without a free worker, or while an earlier wait's bytes are still to be read, the task runs at once and its
     * read blocks.
     */
    @Override
    public void whenReadable(long deadlineNanos, Runnable task) {
        if (readWait != null) {
            task.run();
            return;
        }
        ReadWait wait = new ReadWait();
        readWait = wait;
        Runnable waitThenRun = () -> {
            wait.readFrom(socket, in, deadlineNanos);
            task.run();
        };
        if (!workers.tryExecute(waitThenRun)) {
            waitThenRun.run();
        }
    }

    /**
     * A blocking read cannot be woken but by closing its socket, or by shutting its input, which this does: the read
     * returns at once and sees the flag, and the output stays open for the answer. Lingering after that answer
     * ends at once, since nothing more can be read.
     */
    @Override
    public void cutReadShort() {
        readCutShort = true;
        try {
            socket.shutdownInput();
        } catch (IOException alreadyClosed) {
            // Closed or reset meanwhile: the blocked read has failed anyway.
        }
    }

    @Override
    public void abort() {
        close();
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return remote;
    }

    @Override
    public InetSocketAddress localAddress() {
        return local;
    }

    /** The raw channel is plaintext; over TLS the exchange sees {@link HybridTls} instead. */
    @Override
    public TlsDetails tls() {
        return null;
    }

    boolean isOpen() {
        return channel.isOpen();
    }

    /** For the watchdog: whether a write has been blocked past the write timeout. */
    boolean writeOverdue(long now) {
        long deadline = writeDeadlineNanos;
        return deadline != 0 && now - deadline > 0;
    }

    /** For the watchdog: the write timed out; closing unblocks the worker. */
    void writeTimedOut() {
        context.counters().timedOut(TimeoutKind.WRITE);
        close();
    }

    void close() {
        try {
            channel.close();
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "Closing " + remote + " failed: " + e);
        }
    }

    /**
     * Closes after a complete response without resetting it: stop sending, then read and discard what the client
     * still sends (a body we refused, pipelined requests) for a moment, so its receive path sees our response
     * before the close.
     */
    private void lingerAndClose() {
        try {
            if (tls != null) {
                tls.closeOutbound();
            }
            socket.shutdownOutput();
            ByteBuffer discard = ByteBuffer.allocate(4096);
            int total = 0;
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(LINGER_MILLIS);
            while (total < LINGER_MAX_BYTES && System.nanoTime() < deadline) {
                // Through read(), so a pending ReadWait is waited for (within the linger) rather than raced.
                int count = read(discard.clear(), LINGER_MILLIS);
                if (count < 0) {
                    break;
                }
                total += count;
            }
        } catch (IOException endedAnyway) {
            // The client closed or reset first: either way the connection is finished.
        }
    }
}
