package io.sprout.engine.hybrid;

import io.sprout.engine.TimeoutKind;
import io.sprout.engine.exchange.HeadClock;
import io.sprout.engine.exchange.HttpConnection;
import io.sprout.engine.exchange.ServerContext;
import io.sprout.engine.exec.Workers;
import io.sprout.engine.http.HttpException;
import io.sprout.engine.http.RequestHead;
import io.sprout.engine.transport.ShedQueue;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.concurrent.TimeUnit;

/**
 * A hybrid connection's next request head read on its own worker, blocking, within {@link HeadClock}'s limits: for
 * TLS connections, whose record layer runs over the blocking socket, and for the rare plaintext one that cannot park
 * (an earlier non-blocking read still waits on a worker). The idle wait is sliced so that, while a platform pool is
 * under pressure, an idle connection gives its worker back instead of holding it until the idle timeout, and it
 * queues in the {@link ShedQueue} like any idle connection.
 */
final class BlockingHeads {

    private static final long IDLE_SLICE_MILLIS = 1000;

    private final HttpConnection http;
    private final HeadClock clock;
    private final Workers workers;
    private final ServerContext context;
    private final ShedQueue shedQueue;
    private final Runnable close;
    private volatile boolean idle;

    /**
     * @param shedQueue where an idle wait queues to be shed at the connection limit
     * @param close closes the connection from any thread, which ends a blocked read
     */
    BlockingHeads(HttpConnection http, HeadClock clock, Workers workers, ShedQueue shedQueue, Runnable close) {
        this.http = http;
        this.clock = clock;
        this.workers = workers;
        this.context = http.context();
        this.shedQueue = shedQueue;
        this.close = close;
    }

    /** Whether the worker waits for a next request with nothing of it received (graceful shutdown closes those). */
    boolean idle() {
        return idle;
    }

    /**
     * Blocking: the next head within the clock's limits, or {@code null} when the connection should close quietly.
     * The first head's limits run from the accept; a later one's from now.
     */
    RequestHead next(boolean firstHead) throws IOException {
        if (!firstHead) {
            long now = System.nanoTime();
            if (http.headInProgress()) {
                clock.headBegun(now);
            } else {
                clock.idle(now);
            }
        }
        while (true) {
            RequestHead head = http.parseBuffered();
            if (head != null) {
                return head;
            }
            if (clock.idle()) {
                if (context.shutdown().draining() || !awaitFirstByte()) {
                    return null;
                }
            } else if (!fillWithinHeadLimits()) {
                return null;
            }
        }
    }

    /** @return {@code false} when the client closed, or sent nothing of its first head in time */
    private boolean fillWithinHeadLimits() throws IOException {
        long now = System.nanoTime();
        TimeoutKind expired = clock.expired(now);
        if (expired != null) {
            context.counters().timedOut(expired);
            if (!clock.begun()) {
                return false;
            }
            throw new HttpException(408, "Request head not received in time");
        }
        int before = http.inbound().buffer().remaining();
        try {
            long left = Math.max(1, TimeUnit.NANOSECONDS.toMillis(clock.expiresAt() - now) + 1);
            if (!http.inbound().fill(http.channel(), left)) {
                return false;
            }
        } catch (SocketTimeoutException checkedOnTheNextTurn) {
            return true;
        }
        clock.received(System.nanoTime(), http.inbound().buffer().remaining() - before);
        return true;
    }

    /**
     * Waits for the first byte of a next request; {@code false} when the connection should close instead. Meanwhile
     * the connection may be shed at the connection limit: closing it ends the read (no loop owns this connection to
     * check first, so a request arriving at that very moment is closed too, and its client retries).
     */
    private boolean awaitFirstByte() throws IOException {
        idle = true;
        context.counters().connectionsIdle.increment();
        ShedQueue.Ticket ticket = shedQueue.idle(shed -> {
            context.counters().connectionsShed.increment();
            close.run();
        });
        try {
            while (true) {
                long now = System.nanoTime();
                long left = TimeUnit.NANOSECONDS.toMillis(clock.expiresAt() - now);
                if (left <= 0) {
                    context.counters().timedOut(TimeoutKind.IDLE);
                    return false;
                }
                if (context.shutdown().draining()) {
                    return false;
                }
                try {
                    int before = http.inbound().buffer().remaining();
                    boolean open = http.inbound().fill(http.channel(), Math.min(left, IDLE_SLICE_MILLIS));
                    clock.received(System.nanoTime(), http.inbound().buffer().remaining() - before);
                    return open;
                } catch (SocketTimeoutException stillIdle) {
                    if (workers.underPressure()) {
                        return false;
                    }
                }
            }
        } finally {
            shedQueue.done(ticket);
            idle = false;
            context.counters().connectionsIdle.decrement();
        }
    }
}
