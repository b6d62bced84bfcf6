package io.sprout.engine.websocket;

import io.sprout.engine.AsyncExchange;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.function.BooleanSupplier;

/**
 * Reads a WebSocket connection's bytes into its {@link FrameParser} on the engine's readiness callbacks: a read is
 * made only when it will not wait, so a connection waiting for the client holds no worker, and the parser's
 * listener runs on the worker, one read at a time.
 *
 * <p><b>Suspension.</b> While the application has suspended reading, the socket is not read at all: the client's
 * frames back up in TCP until its sends block, which is the only flow control WebSocket has. A suspension takes
 * effect before the next read, so the messages of the read in progress (at most {@value #MAX_READ} bytes) are still
 * delivered after it. A suspended connection also hears of nothing the client sends, its Close or its departure
 * included, until reading resumes; nor does the idle timeout run, which bounds waits for the client, not for the
 * application.
 */
final class FrameReader {

    /** What reading tells its connection; called on the reading worker. */
    interface Events {

        /** The client broke the protocol or a limit. */
        void violation(CloseException violation);

        /** The client sent nothing for the idle timeout. */
        void idle(SocketTimeoutException timeout);

        /** The connection broke, or the client closed it without a closing handshake. */
        void lost(IOException cause);
    }

    private static final int MIN_READ = 512;
    private static final int MAX_READ = 16_384;

    private final AsyncExchange exchange;
    private final InputStream in;
    private final FrameParser parser;
    private final BooleanSupplier closed;
    private final Events events;
    /** Guards the two flags below, so a resume never misses a reader that stopped for the suspension. */
    private final Object gate = new Object();
    private boolean suspended;
    /** Whether the reader stopped for the suspension, with no readiness callback asked: resuming must ask one. */
    private boolean parked;

    /** @param closed whether the connection has closed, after which nothing more is read */
    FrameReader(AsyncExchange exchange, InputStream in, FrameParser parser, BooleanSupplier closed, Events events) {
        this.exchange = exchange;
        this.in = in;
        this.parser = parser;
        this.closed = closed;
        this.events = events;
    }

    /** Reads once the client has sent something (or at once, if it has). */
    void awaitBytes() {
        exchange.onRequestReady(this::readable);
    }

    /** Any thread: stops reading before the next read. */
    void suspend() {
        synchronized (gate) {
            suspended = true;
        }
    }

    /** Any thread: reading goes on where it stopped; nothing happens when it was not suspended. */
    void resume() {
        boolean wasParked;
        synchronized (gate) {
            suspended = false;
            wasParked = parked;
            parked = false;
        }
        if (wasParked) {
            // On the exchange's worker, as every read is: the caller's thread must not touch the request stream.
            exchange.execute(this::readable);
        }
    }

    /** Worker: whether the reader stops here for a suspension (and then resuming restarts it). */
    private boolean parkIfSuspended() {
        synchronized (gate) {
            parked = suspended;
            return parked;
        }
    }

    private void readable() {
        try {
            byte[] chunk = new byte[Math.clamp(in.available(), MIN_READ, MAX_READ)];
            while (!closed.getAsBoolean()) {
                if (parkIfSuspended()) {
                    return;
                }
                if (!exchange.requestReady()) {
                    awaitBytes();
                    return;
                }
                int count = in.read(chunk);
                if (count < 0) {
                    events.lost(new EOFException("The client closed the connection without a closing handshake"));
                    return;
                }
                parser.parse(ByteBuffer.wrap(chunk, 0, count));
            }
        } catch (CloseException violation) {
            events.violation(violation);
        } catch (SocketTimeoutException idle) {
            events.idle(idle);
        } catch (IOException gone) {
            events.lost(gone);
        }
    }
}
