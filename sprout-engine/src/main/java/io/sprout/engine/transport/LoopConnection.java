package io.sprout.engine.transport;

import static io.sprout.engine.transport.ConnectionState.CLOSED;
import static io.sprout.engine.transport.ConnectionState.HANDSHAKING;
import static io.sprout.engine.transport.ConnectionState.LINGERING;
import static io.sprout.engine.transport.ConnectionState.MULTIPLEXED;
import static io.sprout.engine.transport.ConnectionState.QUIET;
import static io.sprout.engine.transport.ConnectionState.READING;
import static io.sprout.engine.transport.ConnectionState.WORKING;

import io.sprout.engine.TimeoutKind;
import io.sprout.engine.exchange.Http2Connection;
import io.sprout.engine.exchange.HttpConnection;
import io.sprout.engine.exchange.Outcome;
import io.sprout.engine.exchange.ServerContext;
import io.sprout.engine.exec.Workers;
import io.sprout.engine.tls.ServerTls;
import io.sprout.engine.tls.TlsChannel;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.nio.channels.ByteChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * One client connection on an event loop, in either execution mode. The loop reads request heads
 * ({@link HeadReader}); a worker runs each exchange and hands the connection back ({@link ConnectionWorker}); a
 * suspended exchange keeps the connection in WORKING/QUIET without a worker, its readiness tasks run from the loop,
 * and its continuation carries on on a worker as a blocking exchange would have.
 *
 * <p>The states, and who owns the connection in each, are {@link ConnectionState}'s: the worker owns the
 * {@link HttpConnection} in WORKING and QUIET, the loop in every other state, and the hand-overs are atomic state
 * changes. {@link #close()} swaps in CLOSED; whoever owns the connection at that moment releases its buffers.
 * Interest stays on OP_READ while a worker runs, so a keep-alive hand-back needs no selector wake-up; in hybrid mode
 * a worker that would wait has the key cancelled and made anew after it ({@link LoopRegistration}). Only the loop
 * changes interest ops and closes; the worker asks it with a task. The worker's reads and writes are
 * {@link WorkerChannel}'s.
 *
 * <p>TLS: the transport chose at accept time whether bytes move through the socket's bytes themselves or through a
 * {@link TlsChannel} over them ({@code io}). In HANDSHAKING the loop advances the handshake on readiness, delegated
 * tasks run on a worker, and the sweep enforces the handshake timeout. Records read ahead stay in the TLS layer,
 * which the socket will not report again: the loop keeps reading while it holds whole ones, and a hand-back asks it
 * to read them.
 */
final class LoopConnection implements SelectorLoop.Member {

    private static final System.Logger LOG = System.getLogger(LoopConnection.class.getName());

    private final SocketChannel channel;
    /** Hybrid mode: the socket's bytes, blocking while a worker serves; {@code null} in nio mode. */
    private final SocketIo raw;
    private final SelectorLoop loop;
    private final ServerContext context;
    private final Workers workers;
    private final Runnable onClose;
    private final HttpConnection http;
    private final WorkerChannel worker;
    private final InetSocketAddress remote;
    /** The TLS layer, or {@code null} for plaintext. */
    private final TlsChannel tls;
    /** Where bytes move: {@code channel} itself, or {@code tls}. */
    private final ByteChannel io;
    private final LoopHandshake handshake;
    private final ConnectionState state;
    private final ConnectionWorker serving;
    private final HeadReader heads;
    private final Http2Reader frames;
    private final long acceptedAt = System.nanoTime();
    private final HeadWait waiting;
    private final LoopRegistration registration;

    /**
     * @param serverTls the server's TLS, or {@code null} for a plaintext connection
     * @param blockingWorkers whether workers serve with the socket in blocking mode (hybrid) rather than on the
     *     non-blocking channel (nio)
     */
    LoopConnection(SocketChannel channel, SelectorLoop loop, ServerContext context, Workers workers,
            ServerTls serverTls, boolean blockingWorkers, ShedQueue shedQueue, Runnable onClose) throws IOException {
        this.channel = channel;
        this.raw = blockingWorkers ? new SocketIo(channel, context.config().timeouts().write().toNanos()) : null;
        this.loop = loop;
        this.context = context;
        this.workers = workers;
        this.onClose = onClose;
        this.waiting = new HeadWait(context, shedQueue, this::shed);
        this.remote = (InetSocketAddress) channel.getRemoteAddress();
        ByteChannel net = raw != null ? raw : channel;
        this.tls = serverTls == null ? null : serverTls.newChannel(net);
        this.io = tls == null ? net : tls;
        this.handshake = tls == null ? null
                : new LoopHandshake(tls, workers, loop, serverTls.handshakeTimeout().toNanos());
        this.state = new ConnectionState(tls == null ? READING : HANDSHAKING);
        this.worker = new WorkerChannel(channel, io, tls, raw, this, loop, context.config().timeouts().write(),
                remote);
        this.registration = new LoopRegistration(channel, loop, this, state, worker);
        this.http = new HttpConnection(context, worker, this::resumed);
        this.serving = new ConnectionWorker(this, state, http, worker, raw, tls, waiting, loop);
        this.frames = new Http2Reader(this, http, io, tls, worker, loop);
        this.heads = new HeadReader(this, state, http, channel, io, tls, handshake, waiting, workers, serving);
    }

    /**
     * Acceptor thread: the connection is admitted; its first head is due from the accept, and it queues to be shed
     * as a slow head in accept order (its loop registers it next).
     */
    void admitted() {
        waiting.admitted(acceptedAt);
    }

    /** Loop thread: starts watching the admitted connection. */
    void register() {
        if (!watch()) {
            waiting.ended();
            return;
        }
        if (handshake != null) {
            handshake.start(System.nanoTime());
        }
    }

    /**
     * Loop thread: a connection beyond the limit with nothing to shed: 503 and close at once, lingering briefly so
     * the client reads the answer. Over TLS no answer is possible before a handshake, so it just closes.
     */
    void registerRejected() {
        if (!watch()) {
            return;
        }
        if (tls != null) {
            close();
        } else {
            heads.reject(503);
        }
    }

    private boolean watch() {
        try {
            registration.first();
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "Could not register " + remote + ": " + e);
            state.set(CLOSED);
            closeQuietly();
            onClose.run();
            return false;
        }
        loop.added(this);
        return true;
    }

    /** Acceptor thread: the server needs this connection's slot; its loop decides ({@link HeadReader#shed}). */
    private void shed(ShedTicket shed) {
        loop.execute(() -> heads.shed(shed));
    }

    /** Worker thread: a response write waited past the write timeout. */
    void writeTimedOut() {
        context.counters().timedOut(TimeoutKind.WRITE);
    }

    /** Loop thread: the selector reports the socket ready. */
    @Override
    public void onReady(SelectionKey readyKey) {
        switch (state.get()) {
            case HANDSHAKING -> heads.advanceHandshake();
            case READING -> {
                if ((readyKey.interestOps() & SelectionKey.OP_WRITE) != 0) {
                    // A worker's stale request for writability outlived its exchange.
                    readyKey.interestOps(SelectionKey.OP_READ);
                }
                heads.readHead();
            }
            case LINGERING -> heads.discard();
            case WORKING, QUIET -> serving.readyWhileOwned(readyKey);
            case MULTIPLEXED -> frames.ready(readyKey);
            default -> readyKey.cancel();
        }
    }

    /** Loop thread: enforces the handshake timeout, the idle timeout, the head deadline and the linger limit. */
    @Override
    public void checkTimeouts(long now) {
        switch (state.get()) {
            case HANDSHAKING -> heads.checkHandshake(now);
            case READING -> heads.checkHead(now);
            case LINGERING -> heads.checkLinger(now);
            case MULTIPLEXED -> frames.expire(now);
            case WORKING, QUIET -> {
                worker.expire(now);
                if (raw != null && raw.writeOverdue(now)) {
                    // A blocking write has no timeout of its own: closing the socket ends it.
                    writeTimedOut();
                    close();
                }
            }
            default -> {
                // Closed: nothing waits.
            }
        }
    }

    /** Loop thread: closes the connection if it is waiting for a next request, or has yet to finish its handshake. */
    @Override
    public void closeIfIdle() {
        int current = state.get();
        if (current == HANDSHAKING || current == READING && !http.headInProgress()) {
            close();
        } else if (current == MULTIPLEXED) {
            frames.goAway();
        }
    }

    /** Loop thread: closes now; buffers held by a running worker are released when it hands back. */
    @Override
    public void close() {
        int previous = state.close();
        if (previous == CLOSED) {
            return;
        }
        waiting.ended();
        registration.cancel();
        closeQuietly();
        worker.closed();
        frames.closed();
        loop.removed(this);
        onClose.run();
        if (!ConnectionState.ownedByWorker(previous)) {
            releaseBuffers();
        }
    }

    /** Ends our side cleanly: over TLS, {@code close_notify} first (if the handshake got that far), then the FIN. */
    void shutdownOutput() throws IOException {
        if (tls != null) {
            tls.closeOutbound();
        }
        channel.shutdownOutput();
    }

    /** Loop thread: watch for reads ({@link LoopRegistration#watchReads}). */
    void watchReads() {
        registration.watchReads();
    }

    /** Loop thread, hybrid: a worker will block ({@link LoopRegistration#releaseToBlockingWorker}). */
    void releaseKeyToBlockingWorker() {
        registration.releaseToBlockingWorker();
    }

    /** Loop thread, hybrid mode: the worker is done blocking ({@link LoopRegistration#rewatch}). */
    void rewatch() {
        registration.rewatch();
    }

    /**
     * Worker thread: the exchange has just suspended; hybrid mode parks the socket on the loop again (see
     * {@link ConnectionWorker#exchangeSuspended}).
     */
    void exchangeSuspended() {
        serving.exchangeSuspended();
    }

    /** Worker thread: a suspended exchange ended; the worker's side carries on. */
    private void resumed(Outcome outcome) {
        serving.resumed(outcome);
    }

    /** Loop thread: a worker handed the connection back for its next head. */
    void readAgain(boolean readAhead) {
        if (!state.is(READING)) {
            return;
        }
        watchReads();
        if (readAhead) {
            heads.readHead();
        }
    }

    /** Loop thread: ends the connection after a clean end of our side, lingering for what the client sends or not. */
    void end(boolean linger) {
        if (linger) {
            heads.startLingering();
        } else {
            close();
        }
    }

    /**
     * Loop thread: the connection speaks HTTP/2 from now on (a plaintext client's preface, ALPN's {@code h2}, or an
     * h2c upgrade whose worker made {@code session} and queued its 101 and the server's preface).
     */
    void multiplex(Http2Connection session) {
        if (state.is(CLOSED)) {
            if (session != null) {
                session.closed();
            }
            return;
        }
        state.set(MULTIPLEXED);
        waiting.ended();
        // Hybrid: the upgrade's worker had the key cancelled for blocking mode.
        if (!registration.isValid() && !registration.register(SelectionKey.OP_READ, () -> multiplex(session))) {
            return;
        }
        registration.key().interestOps(SelectionKey.OP_READ);
        frames.start(session != null ? session : frames.create(), session != null);
        frames.watch(registration.key());
    }

    /** A new HTTP/2 session over this connection, for an h2c upgrade's worker. */
    Http2Connection newHttp2Session() {
        return frames.create();
    }

    boolean isMultiplexed() {
        return state.is(MULTIPLEXED);
    }

    /** Loop thread: the connection's registration with its loop's selector. */
    SelectionKey key() {
        return registration.key();
    }

    InetSocketAddress remoteAddress() {
        return remote;
    }

    /** Worker thread: whether the connection has been closed under it. */
    boolean isClosed() {
        return state.is(CLOSED);
    }

    /** Loop thread: watches for what the worker or the exchange that owns the connection waits on. */
    void watchForWorker() {
        if (state.is(MULTIPLEXED)) {
            frames.watch(registration.key());
        } else {
            registration.watchForWorker();
        }
    }

    /** Returns what the connection holds to the pools; by whoever owns the connection when it stops being used. */
    void releaseBuffers() {
        http.release();
        if (tls != null) {
            tls.release();
        }
    }

    void closeQuietly() {
        Acceptor.closeQuietly(channel);
    }
}
