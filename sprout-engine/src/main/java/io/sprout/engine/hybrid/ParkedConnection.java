package io.sprout.engine.hybrid;

import io.sprout.engine.TimeoutKind;
import io.sprout.engine.exchange.ErrorResponses;
import io.sprout.engine.exchange.HeadClock;
import io.sprout.engine.exchange.HttpConnection;
import io.sprout.engine.exchange.ServerContext;
import io.sprout.engine.exec.Workers;
import io.sprout.engine.http.HttpException;
import io.sprout.engine.http.RequestHead;
import io.sprout.engine.transport.ShedQueue;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A plaintext hybrid connection while it has no complete request head: parked on the {@link ParkingLoop}, in
 * non-blocking mode, costing no worker. Readable bytes go into the connection's {@link HttpConnection} (a pooled
 * buffer held only while part of a head is there); once a whole head is parsed the key is cancelled and a worker
 * takes the connection over, in blocking mode, for the request ({@link HybridConnection#serveParked}).
 *
 * <pre>
 *   accepted / worker parks it ──▶ WAITING ──whole head──▶ (worker serves it) ──keep-alive──▶ WAITING
 *                                   │  bad head, 408, shed as a slow head, no worker: answered ──▶ LINGERING
 *                                   └──EOF, idle timeout, silent past the head deadline, shed when idle──▶ closed
 *   LINGERING ──EOF / 2 s──▶ closed
 * </pre>
 *
 * The loop owns this object while the connection is parked; hand-overs to and from a worker go through the loop's
 * task queue and the worker pool, which order them.
 */
final class ParkedConnection {

    private static final System.Logger LOG = System.getLogger(ParkedConnection.class.getName());
    private static final long LINGER_NANOS = 2_000_000_000L;

    private final HybridConnection connection;
    private final SocketChannel channel;
    private final HttpConnection http;
    private final ServerContext context;
    private final Workers workers;
    private final ParkingLoop loop;
    private final ShedQueue shedQueue;
    private final HeadClock clock;
    private final AtomicBoolean countedIdle = new AtomicBoolean();
    /** The connection's place in the shed queue while it waits, else {@code null}. */
    private volatile ShedQueue.Ticket ticket;
    private SelectionKey key;
    private boolean lingering;
    private long lingerDeadline;

    ParkedConnection(HybridConnection connection, SocketChannel channel, HttpConnection http, Workers workers,
            ParkingLoop loop, ShedQueue shedQueue, HeadClock clock) {
        this.connection = connection;
        this.channel = channel;
        this.http = http;
        this.context = http.context();
        this.workers = workers;
        this.loop = loop;
        this.shedQueue = shedQueue;
        this.clock = clock;
    }

    /** Acceptor thread: a new connection, its first head due from {@code acceptedNanos}. */
    void admitted(long acceptedNanos) throws IOException {
        clock.accepted(acceptedNanos);
        ticket = shedQueue.awaitingHead(this::shed);
        channel.configureBlocking(false);
        loop.execute(this::register);
    }

    /** Acceptor thread: a connection beyond the limit with nothing to shed: 503 at once, then linger and close. */
    void rejected() throws IOException {
        channel.configureBlocking(false);
        loop.execute(() -> answer(503));
    }

    /** Worker thread, after a response on a kept-alive connection: wait here for the next head, not on the worker. */
    void parkAgain() throws IOException {
        long now = System.nanoTime();
        if (http.headInProgress()) {
            clock.headBegun(now);
            ticket = shedQueue.awaitingHead(this::shed);
        } else {
            clock.idle(now);
            if (countedIdle.compareAndSet(false, true)) {
                context.counters().connectionsIdle.increment();
            }
            ticket = shedQueue.idle(this::shed);
        }
        channel.configureBlocking(false);
        loop.execute(this::register);
    }

    /** Loop thread: starts watching; closes instead when a graceful shutdown no longer wants idle connections. */
    void register() {
        if (!lingering && context.shutdown().draining() && !http.headInProgress()) {
            closeNow();
            return;
        }
        try {
            key = channel.register(loop.selector(), SelectionKey.OP_READ, this);
            loop.added(this);
        } catch (CancelledKeyException previousKeyStillHeld) {
            loop.registerAfterSelection(this);
        } catch (ClosedChannelException | ClosedSelectorException closed) {
            closeNow();
        }
    }

    /** Loop thread: the socket is readable. */
    void onReadable() {
        if (lingering) {
            discard();
            return;
        }
        int count;
        ByteBuffer target = http.inbound().beforeRead();
        try {
            count = channel.read(target);
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "Reading from " + connection.remoteAddress() + " failed: " + e);
            count = -1;
        } finally {
            http.inbound().afterRead(0);
        }
        if (count < 0) {
            closeNow();
            return;
        }
        if (count == 0) {
            return;
        }
        context.counters().bytesIn.add(count);
        leaveIdle();
        clock.received(System.nanoTime(), count);
        RequestHead head;
        try {
            head = http.parseBuffered();
        } catch (HttpException rejected) {
            answer(rejected.status());
            return;
        }
        if (head != null) {
            handOff(head);
        } else if (ticket == null || ticket.idle()) {
            // Part of a head: from now on the connection is shed as a slow head, no longer as an idle one.
            shedQueue.done(ticket);
            ticket = shedQueue.awaitingHead(this::shed);
        }
    }

    /** Loop thread: enforces the head deadline, the head rate, the idle timeout and the linger limit. */
    void checkTimeouts(long now) {
        if (lingering) {
            if (now - lingerDeadline > 0) {
                closeNow();
            }
            return;
        }
        TimeoutKind expired = clock.expired(now);
        if (expired != null) {
            context.counters().timedOut(expired);
            if (clock.begun()) {
                answer(408);
            } else {
                closeNow();
            }
        }
    }

    /** Loop thread: closes the connection if it is parked, waiting for a next request with nothing of it received. */
    void closeIfIdle() {
        if (key != null && !lingering && !http.headInProgress()) {
            closeNow();
        }
    }

    /** Loop thread: closes the parked connection and returns what it holds. */
    void closeNow() {
        unpark();
        shedQueue.done(ticket);
        ticket = null;
        connection.end();
    }

    /** Loop thread: a whole head: a worker serves it, in blocking mode; without a free worker, 503. */
    private void handOff(RequestHead head) {
        shedQueue.done(ticket);
        ticket = null;
        unpark();
        if (!workers.tryExecute(() -> connection.serveParked(head))) {
            context.counters().connectionsRejected.increment();
            LOG.log(Level.DEBUG, "Workers overloaded: answering 503");
            answer(503);
        }
    }

    /** Acceptor thread: the server needs this connection's slot, if it still waits as it did when it took {@code shed}. */
    private void shed(ShedQueue.Ticket shed) {
        loop.execute(() -> {
            if (ticket != shed || key == null || lingering) {
                return;
            }
            context.counters().connectionsShed.increment();
            if (shed.idle()) {
                closeNow();
            } else {
                answer(503);
            }
        });
    }

    /**
     * Loop thread: answers with an error without blocking, ends our side and lingers (reading and dropping what the
     * client still sends, so its receive path sees the answer before the close), watched by the loop.
     */
    private void answer(int status) {
        lingering = true;
        leaveIdle();
        shedQueue.done(ticket);
        ticket = null;
        ByteBuffer response = ErrorResponses.encode(status, context.date(), context.config().serverHeader());
        try {
            int count = response.remaining();
            channel.write(response);
            context.counters().bytesOut.add(count - response.remaining());
            if (response.hasRemaining()) {
                closeNow();
                return;
            }
            channel.shutdownOutput();
        } catch (IOException e) {
            closeNow();
            return;
        }
        lingerDeadline = System.nanoTime() + LINGER_NANOS;
        // Lingering only drops what arrives: nothing more is parsed, so the head's buffer goes back now.
        http.release();
        if (key == null) {
            register();
        }
    }

    private void discard() {
        int count;
        try {
            count = channel.read(loop.scratch());
        } catch (IOException e) {
            count = -1;
        }
        if (count < 0) {
            closeNow();
        }
    }

    private void unpark() {
        leaveIdle();
        if (key != null) {
            key.cancel();
            key = null;
        }
        loop.removed(this);
    }

    private void leaveIdle() {
        if (countedIdle.compareAndSet(true, false)) {
            context.counters().connectionsIdle.decrement();
        }
    }
}
