package io.sprout.engine.hybrid;

import io.sprout.engine.TlsDetails;
import io.sprout.engine.exchange.ConnectionChannel;
import io.sprout.engine.exchange.ErrorResponses;
import io.sprout.engine.exchange.HttpConnection;
import io.sprout.engine.exchange.Outcome;
import io.sprout.engine.exchange.ServerContext;
import io.sprout.engine.exec.Workers;
import io.sprout.engine.http.HttpException;
import io.sprout.engine.http.RequestHead;
import io.sprout.engine.tls.ServerTls;

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
import java.util.function.Consumer;

/**
 * One connection served start to end by one worker, as straight-line blocking code:
 * read a head, serve it, repeat while the connection is kept alive.
 *
 * <p>The idle wait between requests is sliced so that, while a platform pool is under pressure, an idle
 * connection gives its worker back instead of holding it until the idle timeout. The head deadline is absolute:
 * it starts with the head's first byte and a slow sender gets 408.
 *
 * <p>When a handler suspends its exchange the worker returns (to the pool, or its virtual thread ends) and the
 * connection stays open; the exchange's continuation then resumes this same loop on whichever worker ends it.
 *
 * <p>This class is the connection's raw byte channel. With TLS, chosen at accept time, the handshake runs first on
 * this same thread, and the exchange reads and writes through {@link HybridTls} over these raw bytes; without it,
 * the exchange uses this class directly and TLS costs nothing.
 */
final class HybridConnection implements Runnable, ConnectionChannel {

    private static final System.Logger LOG = System.getLogger(HybridConnection.class.getName());
    private static final long IDLE_SLICE_MILLIS = 1000;
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
    /** The TLS layer, or {@code null} for plaintext. */
    private final HybridTls tls;
    private volatile boolean idle;
    /** Until its handshake is done a TLS connection serves nobody: graceful shutdown closes it as if idle. */
    private volatile boolean handshaking;
    private volatile long writeDeadlineNanos;
    private volatile ReadWait readWait;

    /** @param serverTls the server's TLS, or {@code null} for a plaintext connection */
    HybridConnection(SocketChannel channel, ServerContext context, Workers workers, ServerTls serverTls,
            Consumer<HybridConnection> onEnd) throws IOException {
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
        this.http = new HttpConnection(context, tls == null ? this : tls, () -> !workers.underPressure(),
                this::resumed);
    }

    @Override
    public void run() {
        if (tls == null) {
            proceed(null);
            return;
        }
        HybridTls.Handshake handshake = tls.handshake();
        handshaking = false;
        switch (handshake) {
            case SECURED -> proceed(null);
            case PLAINTEXT_HTTP -> {
                answerPlaintextHttp();
                end();
            }
            case FAILED -> end();
        }
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
        proceed(outcome);
    }

    /** Serves until the connection closes (then releases it) or an exchange suspends (then the exchange owns it). */
    private void proceed(Outcome previous) {
        boolean suspended = false;
        try {
            suspended = serveUntilClosedOrSuspended(previous);
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "Connection from " + remote + " ended: " + e);
        } finally {
            if (!suspended) {
                end();
            }
        }
    }

    /** Closes the connection and returns what it holds; once, by the thread that served it last. */
    private void end() {
        close();
        http.release();
        if (tls != null) {
            tls.release();
        }
        onEnd.accept(this);
    }

    /** @return whether an exchange suspended, so the connection must stay open without this worker */
    private boolean serveUntilClosedOrSuspended(Outcome previous) throws IOException {
        if (previous != null && !carryOn(previous)) {
            return false;
        }
        while (true) {
            RequestHead head;
            try {
                head = readHead();
            } catch (HttpException rejected) {
                http.sendError(rejected);
                lingerAndClose();
                return false;
            }
            if (head == null) {
                return false;
            }
            Outcome outcome = http.serve(head);
            if (outcome == Outcome.SUSPENDED) {
                return true;
            }
            if (!carryOn(outcome)) {
                return false;
            }
        }
    }

    /** After an exchange: whether the connection carries another request (else it has been closed cleanly). */
    private boolean carryOn(Outcome outcome) {
        if (outcome == Outcome.CLOSE) {
            lingerAndClose();
        }
        return outcome == Outcome.KEEP_ALIVE;
    }

    /** The next head, or {@code null} when the connection should close quietly (client gone, idle, draining). */
    private RequestHead readHead() throws IOException {
        long idleSince = System.nanoTime();
        long headDeadline = 0;
        while (true) {
            RequestHead head = http.parseBuffered();
            if (head != null) {
                return head;
            }
            if (http.headInProgress()) {
                if (headDeadline == 0) {
                    headDeadline = System.nanoTime() + context.config().timeouts().requestHead().toNanos();
                }
                if (!fillBeforeHeadDeadline(headDeadline)) {
                    return null;
                }
            } else {
                if (context.shutdown().draining() || !awaitFirstByte(idleSince)) {
                    return null;
                }
                headDeadline = System.nanoTime() + context.config().timeouts().requestHead().toNanos();
            }
        }
    }

    private boolean fillBeforeHeadDeadline(long deadline) throws IOException {
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (left <= 0) {
            throw new HttpException(408, "Request head not received in time");
        }
        try {
            return http.inbound().fill(http.channel(), left);
        } catch (SocketTimeoutException e) {
            throw new HttpException(408, "Request head not received in time");
        }
    }

    /** Waits for the first byte of a next request; {@code false} when the connection should close instead. */
    private boolean awaitFirstByte(long idleSince) throws IOException {
        long idleTimeout = context.config().timeouts().idle().toNanos();
        idle = true;
        context.counters().connectionsIdle.increment();
        try {
            while (true) {
                long left = TimeUnit.NANOSECONDS.toMillis(idleSince + idleTimeout - System.nanoTime());
                if (left <= 0 || context.shutdown().draining()) {
                    return false;
                }
                try {
                    return http.inbound().fill(http.channel(), Math.min(left, IDLE_SLICE_MILLIS));
                } catch (SocketTimeoutException stillIdle) {
                    if (workers.underPressure()) {
                        return false;
                    }
                }
            }
        } finally {
            idle = false;
            context.counters().connectionsIdle.decrement();
        }
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

    /** Blocking sockets cannot write part of a buffer and return: this writes everything, like {@link #write}. */
    @Override
    public int writeNow(ByteBuffer src) throws IOException {
        int count = src.remaining();
        write(src);
        return count;
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

    /** Writes never leave bytes pending here, so there is nothing to wait for. */
    @Override
    public void whenWritable(long deadlineNanos, Runnable task) {
        task.run();
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

    void closeIfIdle() {
        if (idle || handshaking) {
            close();
        }
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
