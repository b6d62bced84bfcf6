package io.sprout.engine.transport;

import static io.sprout.engine.transport.ConnectionState.HANDSHAKING;
import static io.sprout.engine.transport.ConnectionState.LINGERING;
import static io.sprout.engine.transport.ConnectionState.MULTIPLEXED;
import static io.sprout.engine.transport.ConnectionState.READING;
import static io.sprout.engine.transport.ConnectionState.WORKING;

import io.sprout.engine.exchange.ErrorResponses;
import io.sprout.engine.exchange.HttpConnection;
import io.sprout.engine.exchange.ServerContext;
import io.sprout.engine.exec.Workers;
import io.sprout.engine.http.HttpException;
import io.sprout.engine.http.RequestHead;
import io.sprout.engine.tls.HandshakeStep;
import io.sprout.engine.tls.ServerTls;
import io.sprout.engine.tls.TlsChannel;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;
import java.nio.channels.SocketChannel;

/**
 * The event loop's part of a {@link LoopConnection} between requests, the same in both execution modes: drives the
 * TLS handshake, reads what
 * arrives into the connection's buffer until a whole head is parsed (counting the bytes once, for the head clock
 * and the counters), hands the head to a worker, answers a bad, late or unservable head (400, 408, 503) without
 * blocking, and lingers after an answer: our side shut, what the client still sends read and dropped for a moment,
 * so its receive path sees the answer before the close instead of a reset. Loop thread only.
 */
final class HeadReader {

    private static final System.Logger LOG = System.getLogger(HeadReader.class.getName());
    private static final long LINGER_NANOS = 2_000_000_000L;
    /** A keep-alive connection idle this long gives up its scratch arrays ({@link HttpConnection#trimIdle}). */
    private static final long TRIM_AFTER_NANOS = 1_000_000_000L;

    private final LoopConnection connection;
    private final ConnectionState state;
    private final HttpConnection http;
    private final SocketChannel channel;
    /** Where bytes move: the socket's bytes themselves, or the TLS layer over them. */
    private final ByteChannel io;
    private final TlsChannel tls;
    private final LoopHandshake handshake;
    private final HeadWait waiting;
    private final Workers workers;
    private final ConnectionWorker serving;
    private final ServerContext context;
    private long lingerDeadline;

    HeadReader(LoopConnection connection, ConnectionState state, HttpConnection http, SocketChannel channel,
            ByteChannel io, TlsChannel tls, LoopHandshake handshake, HeadWait waiting, Workers workers,
            ConnectionWorker serving) {
        this.connection = connection;
        this.state = state;
        this.http = http;
        this.channel = channel;
        this.io = io;
        this.tls = tls;
        this.handshake = handshake;
        this.waiting = waiting;
        this.workers = workers;
        this.serving = serving;
        this.context = http.context();
    }

    /** Advances the TLS handshake on readiness, or once its delegated tasks have run. */
    void advanceHandshake() {
        if (!state.is(HANDSHAKING)) {
            return;
        }
        HandshakeStep verdict;
        try {
            verdict = handshake.advance(connection.key(), this::advanceHandshake);
        } catch (IOException | RuntimeException failed) {
            LOG.log(Level.DEBUG, "TLS handshake with " + connection.remoteAddress() + " failed: " + failed);
            connection.close();
            return;
        }
        if (verdict == HandshakeStep.DONE) {
            if (ServerTls.H2.equals(tls.details().applicationProtocol())) {
                connection.multiplex(null);
                return;
            }
            // The first request is still due from the accept; it may already be buffered in the TLS layer.
            state.set(READING);
            connection.watchReads();
            if (tls.hasBufferedInput()) {
                readHead();
            }
        } else if (verdict == HandshakeStep.PLAINTEXT_HTTP) {
            // A plaintext client on the TLS port: told so in plaintext, as Tomcat and Jetty do, then closed.
            state.set(READING);
            answerAndLinger(ErrorResponses.encode(400, context.date(), context.config().serverHeader(),
                    "This port speaks TLS: use https."), channel);
        } else if (verdict != null) {
            connection.close();
        }
    }

    /** Reads what the socket (or the TLS layer) has; a whole head goes to a worker. */
    void readHead() {
        try {
            RequestHead head;
            do {
                ByteBuffer target = http.inbound().beforeRead();
                int count = io.read(target);
                http.inbound().afterRead(count);
                if (count < 0) {
                    connection.close();
                    return;
                }
                if (count == 0) {
                    return;
                }
                waiting.received(System.nanoTime(), count);
                int preface = http.priorKnowledge();
                if (preface > 0) {
                    connection.multiplex(null);
                    return;
                }
                head = preface == 0 ? null : http.parseBuffered();
                // Whole records the TLS layer read ahead: the socket will not report them again.
            } while (head == null && tls != null && tls.hasBufferedInput());
            if (head != null) {
                waiting.ended();
                dispatch(head);
            } else {
                waiting.headIncomplete();
            }
        } catch (HttpException rejected) {
            if (http.invalidPreface(rejected)) {
                connection.close();
            } else {
                reject(rejected.status());
            }
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "Reading from " + connection.remoteAddress() + " failed: " + e);
            connection.close();
        }
    }

    /**
     * The sweep, while a head is awaited: a connection idle for a while gives up its scratch arrays; past its
     * limits, 408 if part of the head came, else a quiet close.
     */
    void checkHead(long now) {
        if (waiting.idleFor(now, TRIM_AFTER_NANOS)) {
            http.trimIdle();
        }
        if (waiting.expired(now) == null) {
            return;
        }
        if (waiting.begun()) {
            reject(408);
        } else {
            connection.close();
        }
    }

    /** The sweep, while handshaking: the handshake or the wait for the first request ran out of time. */
    void checkHandshake(long now) {
        if (handshake.overdue(now) || waiting.expired(now) != null) {
            LOG.log(Level.DEBUG, "TLS handshake with " + connection.remoteAddress() + " timed out");
            connection.close();
        }
    }

    /** The sweep, while lingering: the moment is over. */
    void checkLinger(long now) {
        if (now - lingerDeadline > 0) {
            connection.close();
        }
    }

    /**
     * The server needs this connection's slot: closes it if it still waits as it did when it took {@code shed},
     * quietly when idle (or still handshaking), with 503 when a head was awaited.
     */
    void shed(ShedTicket shed) {
        int current = state.get();
        if (!waiting.stillWaitsAs(shed) || current != READING && current != HANDSHAKING) {
            return;
        }
        context.counters().connectionsShed.increment();
        if (shed.idle() || current == HANDSHAKING) {
            connection.close();
        } else {
            reject(503);
        }
    }

    /** Answers with an error without blocking, then lingers. */
    void reject(int status) {
        answerAndLinger(ErrorResponses.encode(status, context.date(), context.config().serverHeader()), io);
    }

    /** Writes a whole response through {@code via} without blocking, ends our side and lingers. */
    void answerAndLinger(ByteBuffer response, ByteChannel via) {
        try {
            int count = response.remaining();
            via.write(response);
            context.counters().bytesOut.add(count - response.remaining());
            if (response.hasRemaining()) {
                connection.close();
                return;
            }
            connection.shutdownOutput();
            startLingering();
        } catch (IOException e) {
            connection.close();
        }
    }

    /** After a clean end of our side (here, or by a worker): read and drop until the client's EOF or the deadline. */
    void startLingering() {
        // From READING after an HTTP/1.1 answer, or from MULTIPLEXED once HTTP/2's GOAWAY is written.
        if (!state.compareAndSet(READING, LINGERING) && !state.compareAndSet(MULTIPLEXED, LINGERING)) {
            return;
        }
        waiting.ended();
        lingerDeadline = System.nanoTime() + LINGER_NANOS;
        // Lingering only drops what arrives, straight off the socket: nothing more is decrypted or parsed.
        connection.releaseBuffers();
        connection.watchReads();
    }

    /** Reads and drops what a lingering client still sends; its EOF ends the connection. */
    void discard() {
        if (http.inbound().discard(channel) < 0) {
            connection.close();
        }
    }

    /**
     * Hands the connection to a worker; interest stays on OP_READ (see {@link ConnectionState}), in hybrid mode too
     * until the worker would first wait.
     */
    private void dispatch(RequestHead head) {
        state.set(WORKING);
        if (!workers.tryExecute(() -> serving.work(head))) {
            state.set(READING);
            context.counters().connectionsRejected.increment();
            reject(503);
        }
    }
}
