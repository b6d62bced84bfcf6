package io.sprout.engine.exchange;

import io.sprout.engine.RequestBodyException;
import io.sprout.engine.TimeoutKind;
import io.sprout.engine.http.HeaderFields;
import io.sprout.engine.http.HttpException;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * A request body as a stream: the body's bytes as its {@link RequestWire} decodes them (for HTTP/1.1, exactly
 * {@code Content-Length} bytes or the de-chunked content of a chunked body), or, after a protocol upgrade, every
 * byte the client sends until it closes. The first read that must wait for the client lets the wire ask for the
 * body ({@code 100 Continue}). Each wait is bounded by the body's {@link BodyClock}. After the handler,
 * {@link #drain} discards what it left unread so the connection can carry the next request.
 *
 * <p>Blocking reads wait in {@link RequestWire#fill}. Non-blocking readers ask {@link #ready()} first: it decodes
 * ahead what is already buffered (a chunked body's buffered bytes may be all chunk metadata) and reports a failure of
 * an earlier fill as "ready", so the next read throws it instead of waiting. Used by one thread at a time.
 */
final class RequestBody extends InputStream {

    private static final int LOOKAHEAD_SIZE = 4096;

    private final ServerContext context;
    private final RequestWire wire;
    /** Made at the first wait: most bodies are empty or already buffered, and never wait. */
    private BodyClock clock;
    /** This body's blocking waits as {@link SlowBodies} sees them; made at the first wait. */
    private SlowBodies.Wait shedding;
    private boolean raw;
    private Duration rawIdleTimeout;
    private boolean finished;
    private RequestBodyException failure;
    private IOException fillFailure;
    private boolean timedOut;
    private byte[] lookahead;
    private int lookaheadStart;
    private int lookaheadEnd;
    /** For {@link #read()}, which most readers never call. */
    private byte[] single;

    RequestBody(ServerContext context, RequestWire wire) {
        this.context = context;
        this.wire = wire;
        this.finished = wire.ended();
    }

    @Override
    public int read() throws IOException {
        if (single == null) {
            single = new byte[1];
        }
        int count = read(single, 0, 1);
        return count < 0 ? -1 : single[0] & 0xff;
    }

    @Override
    public int read(byte[] dst, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, dst.length);
        if (failure != null) {
            throw failure;
        }
        if (length == 0) {
            return 0;
        }
        if (lookaheadEnd > lookaheadStart) {
            int count = Math.min(length, lookaheadEnd - lookaheadStart);
            System.arraycopy(lookahead, lookaheadStart, dst, offset, count);
            lookaheadStart += count;
            return count;
        }
        while (!finished) {
            int count = decode(dst, offset, length);
            if (count != 0) {
                return count;
            }
            if (!fill()) {
                if (raw) {
                    finished = true;
                    return -1;
                }
                throw new EOFException("The client closed the connection before the request body ended");
            }
        }
        return -1;
    }

    @Override
    public int available() {
        if (lookaheadEnd > lookaheadStart) {
            return lookaheadEnd - lookaheadStart;
        }
        return finished ? 0 : wire.available();
    }

    /**
     * Whether a read returns without waiting: bytes are decoded ahead, the body has ended, or it failed. Decodes
     * what is buffered into the lookahead, so it may throw nothing but records a malformed body as its failure.
     */
    boolean ready() {
        if (finished || failure != null || fillFailure != null || lookaheadEnd > lookaheadStart) {
            return true;
        }
        if (!wire.hasBuffered()) {
            return false;
        }
        if (lookahead == null) {
            lookahead = new byte[LOOKAHEAD_SIZE];
        }
        try {
            int count = decode(lookahead, 0, lookahead.length);
            lookaheadStart = 0;
            lookaheadEnd = Math.max(count, 0);
        } catch (RequestBodyException recorded) {
            // Kept in failure: the next read throws it.
        }
        return finished || failure != null || lookaheadEnd > 0;
    }

    /**
     * Reads once more from the socket for a non-blocking reader whose readiness callback is due (the loop saw
     * bytes, or the wait's deadline passed). A failure, or the deadline having passed, is kept for the next read to
     * throw.
     */
    void fillForReader(long armedNanos, long deadlineNanos) {
        if (ready()) {
            return;
        }
        long now = System.nanoTime();
        if (now - deadlineNanos >= 0) {
            clock().waited(now - armedNanos, 0);
            timedOut = !raw;
            SocketTimeoutException late = new SocketTimeoutException("No request bytes arrived in time");
            fillFailure = raw ? late : tooSlow(late);
            return;
        }
        clock().waited(now - armedNanos, 0);
        try {
            if (!fill()) {
                if (raw) {
                    finished = true;
                } else {
                    fillFailure = new EOFException("The client closed the connection before the request body ended");
                }
            }
        } catch (IOException e) {
            fillFailure = e;
        }
    }

    /**
     * Sends {@code 100 Continue} if the client waits for it, before a non-blocking reader waits for the body. A
     * blocking read sends it on its first fill; a reader that waits for readiness first would otherwise wait for
     * bytes the client holds back, until the body read timeout. A failed send is kept for the next read to throw.
     */
    void continueBeforeWaiting() {
        try {
            wire.beforeWait();
        } catch (IOException clientGone) {
            fillFailure = clientGone;
        }
    }

    /** Waits for more bytes; {@code false} when the client has closed its side. */
    private boolean fill() throws IOException {
        IOException pending = fillFailure;
        if (pending != null) {
            fillFailure = null;
            throw pending;
        }
        wire.beforeWait();
        if (raw) {
            return wire.fill(rawIdleMillis()) >= 0;
        }
        long start = System.nanoTime();
        long wait = clock().allowedWait(start);
        int arrived = 0;
        if (shedding == null) {
            shedding = context.slowBodies().watch(wire::cutReadShort);
        }
        shedding.begin(clock().sheddableFrom(start));
        try {
            // At least a millisecond: bytes already there are still taken when the limit has just run out.
            arrived = wire.fill(Math.max(1, (wait + 999_999) / 1_000_000));
        } catch (SocketTimeoutException e) {
            timedOut = true;
            throw tooSlow(e);
        } finally {
            clock().waited(System.nanoTime() - start, Math.max(0, arrived));
            if (shedding.end()) {
                // Whatever the read did, the body is failed: its worker is wanted for work that waits.
                shed();
            }
        }
        return arrived >= 0;
    }

    /** The wait was cut short to free the worker: fails the body as the rate rule with its grace waived. */
    private void shed() throws RequestBodyException {
        timedOut = true;
        clock().shed();
        throw tooSlow(new SocketTimeoutException("A worker was needed while the body arrived below the minimum rate"));
    }

    /**
     * A body that ran out of time (per-read timeout, rate rule or whole-body deadline) as the typed failure the
     * exchange answers with {@code 408}, so a layer above can tell it from its own timeouts and leave the answer to
     * the engine, as it does for a malformed body.
     */
    private RequestBodyException tooSlow(SocketTimeoutException cause) {
        RequestBodyException slow = new RequestBodyException(408, "The request body did not arrive in time ("
                + clock().limit().name().toLowerCase(Locale.ROOT) + " limit): " + cause.getMessage());
        slow.initCause(cause);
        return slow;
    }

    /**
     * How long a non-blocking reader's wait starting at {@code now} may last before the body's limits run out
     * (the per-read timeout, the rate rule, the whole-body deadline).
     */
    long allowedWaitNanos(long now) {
        return clock().allowedWait(now);
    }

    /** Which limit ended the body when {@link #timedOut()}. */
    TimeoutKind timeoutKind() {
        return clock().limit();
    }

    private BodyClock clock() {
        if (clock == null) {
            clock = new BodyClock(context.config().timeouts(), context.config().minDataRates());
        }
        return clock;
    }

    /** How long a raw read may wait: zero means without limit, which the transports take as a very long time. */
    void rawIdleTimeout(Duration timeout) {
        rawIdleTimeout = timeout;
    }

    /** The raw connection's idle timeout in milliseconds ({@link Integer#MAX_VALUE}, some 24 days, for none). */
    long rawIdleMillis() {
        Duration timeout = rawIdleTimeout != null ? rawIdleTimeout : context.config().timeouts().idle();
        return timeout.isZero() ? Integer.MAX_VALUE : Math.min(timeout.toMillis(), Integer.MAX_VALUE);
    }

    /** Runs {@code task} once more bytes can be read without waiting, at {@code deadlineNanos}, or at a close. */
    void whenReadable(long deadlineNanos, Runnable task) {
        wire.whenReadable(deadlineNanos, task);
    }

    /** Switches to the raw connection after a protocol upgrade: every later byte is body, until the client closes. */
    void becomeRaw() {
        if (!finished || failure != null) {
            throw new IllegalStateException("The request body must be read to its end before an upgrade");
        }
        raw = true;
        finished = false;
        wire.becomeRaw();
    }

    /** Whether a read waited longer than the body read timeout (the answer is then 408). */
    boolean timedOut() {
        return timedOut;
    }

    /** Whether the whole body has been consumed. */
    boolean finished() {
        return finished && lookaheadEnd <= lookaheadStart;
    }

    /** The chunked coding error met while reading, if any. */
    RequestBodyException failure() {
        return failure;
    }

    /** Whether reading more would still need the client to be told {@code 100 Continue}. */
    boolean awaitingContinue() {
        return !finished && wire.awaitingContinue();
    }

    HeaderFields trailers() {
        return wire.trailers();
    }

    /**
     * Reads and discards what the handler left, up to {@code limit} bytes.
     *
     * @return whether the body ended, so the connection may be reused
     */
    boolean drain(long limit) throws IOException {
        lookaheadStart = lookaheadEnd;
        if (finished) {
            return true;
        }
        if (failure != null || wire.awaitingContinue() || fillFailure != null) {
            // The client was never told to send the body (or it is broken): reading on would block or lie.
            return false;
        }
        if (wire.remainingLength() > limit) {
            // Known to exceed the limit: closing now beats holding a worker to read what is thrown away anyway.
            return false;
        }
        byte[] scratch = new byte[(int) Math.min(8192, Math.max(1, limit))];
        long drained = 0;
        while (!finished && drained <= limit) {
            int count = read(scratch, 0, scratch.length);
            if (count > 0) {
                drained += count;
            }
        }
        return finished;
    }

    private int decode(byte[] dst, int offset, int length) throws RequestBodyException {
        try {
            int count = wire.decode(dst, offset, length);
            finished = wire.ended();
            return count;
        } catch (HttpException e) {
            // Not chained: the codec's exception is internal and carries nothing beyond the status and message.
            failure = new RequestBodyException(e.status(), e.getMessage());
            throw failure;
        }
    }
}
