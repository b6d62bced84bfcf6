package io.sprout.engine.transport;

import static io.sprout.engine.transport.ConnectionState.CLOSED;
import static io.sprout.engine.transport.ConnectionState.QUIET;

import io.sprout.engine.exchange.Http2Connection;
import io.sprout.engine.exchange.HttpConnection;
import io.sprout.engine.exchange.Outcome;
import io.sprout.engine.exchange.ServerContext;
import io.sprout.engine.http.HttpException;
import io.sprout.engine.http.RequestHead;
import io.sprout.engine.tls.TlsChannel;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.channels.SelectionKey;
import java.util.function.Supplier;

/**
 * The worker's side of a {@link LoopConnection}: serves a head and whatever pipelined heads are already buffered,
 * then hands the connection back to its loop, for the next head or to end it. When the loop saw the client's next
 * bytes arrive while the worker served (the state is QUIET: the loop switched interest off), the worker reads them
 * itself and serves a head that is whole there and then (platform workers only), up to {@link #HEADS_PER_TURN} a
 * turn: a keep-alive client that answers at once, as a loaded one does, then costs no hand-back, loop wake-up or
 * second dispatch per request. A suspended exchange's continuation carries on here too, on whichever worker ends
 * the exchange.
 *
 * <p>In hybrid mode ({@code raw} not {@code null}) the socket goes into blocking mode the first time this worker would
 * wait for the client ({@link WorkerChannel}), and out of it again before the hand-back, or as soon as an exchange
 * suspends, so that what the connection waits for next is watched by the loop, not by a worker.
 */
final class ConnectionWorker {

    private static final System.Logger LOG = System.getLogger(ConnectionWorker.class.getName());
    /**
     * How many requests one worker turn serves at most when their heads keep arriving while it serves: the rest wait
     * for the loop, so a client that always has its next request ready does not keep a worker to itself. Platform
     * workers only: on virtual threads (one carrier per pinned CPU) serving on measured 5-10 % slower on MVC and gave
     * WebFlux a p99 of 460 ms, the other connections' new virtual threads waiting behind the one that kept the
     * carrier. A {@code Thread.yield()} before each next head does not fix that: a carrier runs the yielded threads
     * of its own queue before the loop's new ones, so the rate rose and the p99 grew 2.5 times (architecture.md).
     */
    private static final int HEADS_PER_TURN = 16;

    private final LoopConnection connection;
    private final ConnectionState state;
    private final HttpConnection http;
    private final WorkerChannel worker;
    private final SocketIo raw;
    private final TlsChannel tls;
    private final HeadWait waiting;
    private final SelectorLoop loop;
    private final ServerContext context;

    ConnectionWorker(LoopConnection connection, ConnectionState state, HttpConnection http, WorkerChannel worker,
            SocketIo raw, TlsChannel tls, HeadWait waiting, SelectorLoop loop) {
        this.connection = connection;
        this.state = state;
        this.http = http;
        this.worker = worker;
        this.raw = raw;
        this.tls = tls;
        this.waiting = waiting;
        this.loop = loop;
        this.context = http.context();
    }

    /** Serves the head and any pipelined heads already buffered, then hands back. */
    void work(RequestHead head) {
        worker.turnBegins();
        long[] h2cSettings = http.h2cUpgrade(head);
        if (h2cSettings != null) {
            upgradeToHttp2(head, h2cSettings);
            return;
        }
        proceed(() -> http.serve(head));
    }

    /**
     * h2c: the upgrade request becomes stream 1 of an HTTP/2 connection, and the connection goes back to its loop,
     * multiplexed, for good (in hybrid mode out of blocking mode: its streams write from several workers).
     */
    private void upgradeToHttp2(RequestHead head, long[] settings) {
        Http2Connection session = connection.newHttp2Session();
        try {
            if (!http.upgradeToHttp2(head, settings, session)) {
                proceed(() -> Outcome.CLOSE);
                return;
            }
        } catch (IOException | HttpException failed) {
            LOG.log(Level.DEBUG, "h2c upgrade of " + connection.remoteAddress() + " failed: " + failed);
            proceed(() -> Outcome.ABORT);
            return;
        }
        leaveBlocking();
        if (state.handBackMultiplexed() == CLOSED) {
            session.closed();
            connection.releaseBuffers();
            return;
        }
        loop.execute(() -> connection.multiplex(session));
    }

    /**
     * Loop thread: the socket is ready while a worker or a suspended exchange owns the connection: stop watching,
     * wake a parked worker, run the due readiness tasks, and keep watching only for what other tasks still wait on.
     */
    void readyWhileOwned(SelectionKey readyKey) {
        int readyOps = readyKey.readyOps();
        readyKey.interestOps(0);
        if (state.quietIfOwned()) {
            worker.ready(readyOps);
            int stillWanted = worker.wantedOps();
            if (stillWanted != 0 && readyKey.isValid() && state.get() == QUIET) {
                readyKey.interestOps(stillWanted);
            }
        } else {
            // The worker handed back in between, seeing interest still on: restore it and read the next head.
            connection.readAgain(true);
        }
    }

    /** A suspended exchange ended; carry on as after any exchange. */
    void resumed(Outcome outcome) {
        proceed(() -> outcome);
    }

    /**
     * The exchange has just suspended (its handler returned without ending it), and its task slot is not yet
     * released: in hybrid mode the socket leaves blocking mode and the loop watches it, so whatever the exchange waits
     * for next waits without a worker.
     */
    void exchangeSuspended() {
        if (raw == null || !raw.blocking()) {
            return;
        }
        try {
            raw.blocking(false);
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "Could not park " + connection.remoteAddress() + ": " + e);
            loop.execute(connection::close);
            return;
        }
        loop.execute(connection::rewatch);
    }

    private void proceed(Supplier<Outcome> first) {
        Outcome outcome;
        try {
            outcome = first.get();
            for (int served = 1; outcome == Outcome.KEEP_ALIVE && !state.is(CLOSED); served++) {
                RequestHead next = http.parseBuffered();
                if (next == null && served < HEADS_PER_TURN && state.is(QUIET) && !context.shutdown().draining()
                        && !Thread.currentThread().isVirtual()) {
                    next = http.readArrivedHead();
                }
                if (next == null) {
                    break;
                }
                outcome = http.serve(next);
            }
        } catch (HttpException rejected) {
            outcome = sendError(rejected);
        } catch (IOException gone) {
            LOG.log(Level.DEBUG, "Reading the next head from " + connection.remoteAddress() + " failed: " + gone);
            outcome = Outcome.ABORT;
        } catch (RuntimeException | Error bug) {
            // The outermost frame of this worker's turn: an engine bug ends the connection, not the worker thread.
            LOG.log(Level.ERROR, "Serving " + connection.remoteAddress() + " failed", bug);
            outcome = Outcome.ABORT;
        }
        if (outcome == Outcome.SUSPENDED) {
            // The exchange owns the connection now, and may already have ended on another thread: touch nothing.
            return;
        }
        boolean rewatch = leaveBlocking();
        // Reuse was decided when the response committed; a shutdown that began since ends the now idle connection.
        if (outcome == Outcome.KEEP_ALIVE && !context.shutdown().draining()) {
            handBackForNextRequest(rewatch);
        } else {
            handBackToClose(outcome);
        }
    }

    /** Hybrid mode: back to non-blocking before the loop takes the connection again; whether it was blocking. */
    private boolean leaveBlocking() {
        if (raw == null || !raw.blocking()) {
            return false;
        }
        try {
            raw.blocking(false);
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "Could not hand " + connection.remoteAddress() + " back to its loop: " + e);
            connection.closeQuietly();
        }
        return true;
    }

    /**
     * Back to READING with one atomic step; a loop task only if the loop must watch the socket again (it switched
     * interest off, or hybrid mode cancelled the key) or the TLS layer holds records of the next request already
     * (which the socket will not report).
     */
    private void handBackForNextRequest(boolean rewatch) {
        waiting.again(System.nanoTime(), http.headInProgress());
        boolean readAhead = tls != null && tls.hasBufferedInput();
        int previous = state.handBack();
        if (previous == CLOSED) {
            waiting.ended();
            connection.releaseBuffers();
        } else if (previous == QUIET || readAhead || rewatch) {
            loop.execute(() -> connection.readAgain(readAhead));
        }
    }

    /** A closing connection goes back to the loop, which lingers (after a clean end of our side) or closes it. */
    private void handBackToClose(Outcome outcome) {
        boolean clean = outcome == Outcome.CLOSE;
        if (clean) {
            try {
                connection.shutdownOutput();
            } catch (IOException e) {
                clean = false;
            }
        }
        if (state.handBack() == CLOSED) {
            connection.releaseBuffers();
            return;
        }
        boolean linger = clean;
        loop.execute(() -> connection.end(linger));
    }

    private Outcome sendError(HttpException rejected) {
        try {
            http.sendError(rejected);
            return Outcome.CLOSE;
        } catch (IOException e) {
            return Outcome.ABORT;
        }
    }
}
