package io.sprout.engine.hybrid;

import io.sprout.engine.exchange.ErrorResponses;
import io.sprout.engine.exchange.HeadClock;
import io.sprout.engine.exchange.HttpConnection;
import io.sprout.engine.exchange.ServerContext;
import io.sprout.engine.exec.Workers;
import io.sprout.engine.http.HttpException;
import io.sprout.engine.http.RequestHead;
import io.sprout.engine.transport.HeadWait;
import io.sprout.engine.transport.SelectorLoop;
import io.sprout.engine.transport.ShedQueue;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * A plaintext hybrid connection while it has no complete request head: parked on the transport's parking
 * {@link SelectorLoop}, in non-blocking mode, costing no worker. Readable bytes go into the connection's
 * {@link HttpConnection} (a pooled buffer held only while part of a head is there); once a whole head is parsed the
 * key is cancelled and a worker takes the connection over, in blocking mode, for the request
 * ({@link HybridConnection#serveParked}).
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
final class ParkedConnection implements SelectorLoop.Member {

    private static final System.Logger LOG = System.getLogger(ParkedConnection.class.getName());
    private static final long LINGER_NANOS = 2_000_000_000L;

    private final HybridConnection connection;
    private final SocketChannel channel;
    private final HttpConnection http;
    private final ServerContext context;
    private final Workers workers;
    private final SelectorLoop loop;
    private final HeadWait waiting;
    private SelectionKey key;
    private boolean lingering;
    private long lingerDeadline;

    ParkedConnection(HybridConnection connection, SocketChannel channel, HttpConnection http, Workers workers,
            SelectorLoop loop, ShedQueue shedQueue) {
        this.connection = connection;
        this.channel = channel;
        this.http = http;
        this.context = http.context();
        this.workers = workers;
        this.loop = loop;
        this.waiting = new HeadWait(context, shedQueue, this::shed);
    }

    /** The head limits, which a worker's blocking fallback read observes too. */
    HeadClock clock() {
        return waiting.clock();
    }

    /** Acceptor thread: a new connection, its first head due from {@code acceptedNanos}. */
    void admitted(long acceptedNanos) throws IOException {
        waiting.admitted(acceptedNanos);
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
        waiting.again(System.nanoTime(), http.headInProgress());
        channel.configureBlocking(false);
        loop.execute(this::register);
    }

    /** Loop thread: starts watching; closes instead when a graceful shutdown no longer wants idle connections. */
    void register() {
        if (!lingering && context.shutdown().draining() && !http.headInProgress()) {
            close();
            return;
        }
        try {
            key = channel.register(loop.selector(), SelectionKey.OP_READ, this);
            loop.added(this);
        } catch (CancelledKeyException previousKeyStillHeld) {
            loop.afterNextSelection(this::register);
        } catch (ClosedChannelException | ClosedSelectorException closed) {
            close();
        }
    }

    /** Loop thread: the socket is readable. */
    @Override
    public void onReady(SelectionKey readyKey) {
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
            close();
            return;
        }
        if (count == 0) {
            return;
        }
        context.counters().bytesIn.add(count);
        waiting.received(System.nanoTime(), count);
        RequestHead head;
        try {
            head = http.parseBuffered();
        } catch (HttpException rejected) {
            answer(rejected.status());
            return;
        }
        if (head != null) {
            handOff(head);
        } else {
            waiting.headIncomplete();
        }
    }

    /** Loop thread: enforces the head deadline, the head rate, the idle timeout and the linger limit. */
    @Override
    public void checkTimeouts(long now) {
        if (lingering) {
            if (now - lingerDeadline > 0) {
                close();
            }
            return;
        }
        if (waiting.expired(now) != null) {
            // Nothing received, nothing to answer: an idle or silent connection just closes.
            if (waiting.begun()) {
                answer(408);
            } else {
                close();
            }
        }
    }

    /** Loop thread: closes the connection if it is parked, waiting for a next request with nothing of it received. */
    @Override
    public void closeIfIdle() {
        if (key != null && !lingering && !http.headInProgress()) {
            close();
        }
    }

    /** Loop thread: closes the parked connection and returns what it holds. */
    @Override
    public void close() {
        unpark();
        waiting.ended();
        connection.end();
    }

    /** Loop thread: a whole head: a worker serves it, in blocking mode; without a free worker, 503. */
    private void handOff(RequestHead head) {
        waiting.ended();
        unpark();
        if (!workers.tryExecute(() -> connection.serveParked(head))) {
            context.counters().connectionsRejected.increment();
            LOG.log(Level.DEBUG, "Workers overloaded: answering 503");
            answer(503);
        }
    }

    /** Acceptor thread: the server needs this connection's slot, if it still waits as when it took {@code shed}. */
    private void shed(ShedQueue.Ticket shed) {
        loop.execute(() -> {
            if (!waiting.stillWaitsAs(shed) || key == null || lingering) {
                return;
            }
            context.counters().connectionsShed.increment();
            if (shed.idle()) {
                close();
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
        waiting.ended();
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
        } catch (IOException e) {
            close();
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
        if (http.inbound().discard(channel) < 0) {
            close();
        }
    }

    private void unpark() {
        if (key != null) {
            key.cancel();
            key = null;
        }
        loop.removed(this);
    }
}
