package io.sprout.engine.exchange;

import io.sprout.engine.http.BodyFraming;
import io.sprout.engine.http.HeaderFields;
import io.sprout.engine.http.HttpException;
import io.sprout.engine.http.RequestHead;
import io.sprout.engine.http2.ErrorCode;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;

/**
 * One HTTP/2 stream (RFC 9113 §5.1) as the {@link ExchangeStream} of the one exchange it carries: the request body
 * arrives as DATA frames that the event loop copies in ({@link #received}), the worker reading the body takes them
 * out ({@link Http2RequestWire}), and the response leaves as HEADERS and DATA frames through the connection's
 * {@link Http2Outbound} ({@link Http2ResponseWire}). The exchange above is the same one an HTTP/1.1 connection
 * runs.
 *
 * <pre>
 *   open ──END_STREAM received──▶ half-closed (remote) ──END_STREAM sent──▶ closed
 *    └──END_STREAM sent──▶ half-closed (local) ──END_STREAM received, or RST_STREAM(NO_ERROR) sent──▶ closed
 *   any ──RST_STREAM either way, or the connection closes──▶ closed (reset)
 * </pre>
 *
 * What arrives is the stream's {@link Http2StreamInput}, under its own lock; the send window is the outbound's, under
 * its lock.
 */
final class Http2Stream implements ExchangeStream {

    private static final System.Logger LOG = System.getLogger(Http2Stream.class.getName());

    final int id;
    /** What the client sends on the stream. */
    final Http2StreamInput input;
    /** Guarded by the outbound's lock. */
    long sendWindow;
    private final Http2Connection connection;
    private volatile boolean localEnded;
    private volatile Exchange exchange;
    /** Once the exchange is over with the request still arriving: when to give up on its end; 0 before. */
    private volatile long discardDeadline;
    /** Registered with the shedding of stalled work once a write first waits for the client's window. */
    private SlowBodies.Wait stalledWrites;
    private volatile Runnable writable;
    private volatile long writableDeadline;

    Http2Stream(int id, Http2Connection connection, long sendWindow, long receiveWindow) {
        this.id = id;
        this.connection = connection;
        this.sendWindow = sendWindow;
        this.input = new Http2StreamInput(receiveWindow, count -> connection.consumed(this, count));
    }

    // ---- ExchangeStream ----

    @Override
    public ServerContext context() {
        return connection.context();
    }

    @Override
    public ConnectionChannel channel() {
        return connection.channel();
    }

    @Override
    public BodyFraming bodyFraming(BodyFraming declared) {
        // Without Content-Length the body runs until END_STREAM, like a chunked HTTP/1.1 body.
        return declared == BodyFraming.NONE && !input.ended() ? new BodyFraming.Chunked() : declared;
    }

    @Override
    public RequestWire requestWire(BodyFraming framing, boolean expectContinue) {
        return new Http2RequestWire(this, expectContinue && !input.hasEnded());
    }

    /** Sends {@code 100 Continue}: a HEADERS frame that does not end the stream (RFC 9113 §8.1). */
    void sendContinue() {
        connection.outbound().headers(this, 100, new HeaderFields(0), false);
        connection.outbound().flush();
    }

    @Override
    public ResponseWire responseWire(RequestHead head, RequestBody body) {
        return new Http2ResponseWire(this, head);
    }

    @Override
    public void sendError(HttpException error) throws IOException {
        HeaderFields fields = new HeaderFields(2);
        fields.add("content-length", "0");
        fields.add("date", context().date().now());
        connection.outbound().headers(this, error.status(), fields, true);
        localEnded();
        connection.outbound().flush();
    }

    @Override
    public void suspended() {
        // Nothing to hand over: the connection's reader never waits for a stream.
    }

    @Override
    public void resumed(Outcome outcome) {
        connection.exchangeEnded(this, outcome);
    }

    @Override
    public void abort() {
        connection.reset(this, ErrorCode.CANCEL);
    }

    /** Worker: runs the stream's exchange; a suspended one ends later, through {@link #resumed}. */
    void serve(RequestHead head) {
        if (resetCode() != null) {
            // Reset while it waited for a worker (Rapid Reset): no handler runs for a request nobody waits for.
            connection.exchangeEnded(this, Outcome.ABORT);
            return;
        }
        Outcome outcome;
        try {
            Exchange current = new Exchange(this, head);
            exchange = current;
            outcome = current.run();
        } catch (RuntimeException | Error bug) {
            LOG.log(Level.ERROR, "Serving HTTP/2 stream " + id + " failed", bug);
            outcome = Outcome.ABORT;
        }
        if (outcome != Outcome.SUSPENDED) {
            connection.exchangeEnded(this, outcome);
        }
    }

    // ---- the event loop's side ----

    /** Loop: body bytes arrived; those the stream no longer takes go back to the windows at once. */
    void received(ByteBuffer bytes) {
        if (!bytes.hasRemaining()) {
            return;
        }
        int dropped = input.add(bytes);
        if (dropped > 0) {
            connection.consumed(this, dropped);
        }
    }

    /** The connection closed under the stream: as a reset, without a frame. */
    void closeAbruptly(ErrorCode code) {
        resetBy(code, false);
    }

    /**
     * Marks the stream reset by us or by the client: waiters wake, tasks run, buffered body bytes go back to the
     * connection's window.
     *
     * @return {@code false} when it was reset already
     */
    boolean resetBy(ErrorCode code, boolean byPeer) {
        int dropped = input.reset(code, byPeer);
        if (dropped < 0) {
            return false;
        }
        connection.released(dropped);
        writableAgain();
        return true;
    }

    ErrorCode resetCode() {
        return input.resetCode();
    }

    /** Whether we reset the stream (late frames from the client are then ignored, §5.1). */
    boolean resetByUs() {
        return input.resetByUs();
    }

    /** The client reset the stream, or the connection closed: an exchange waiting without a thread learns it now. */
    void abortExchange() {
        Exchange current = exchange;
        if (current != null && current.asyncExchange() != null) {
            current.abort(new IOException("The HTTP/2 stream was reset or its connection closed"));
        }
    }

    /**
     * Worker: the exchange is over but the request goes on; what is buffered and what still arrives is dropped,
     * its window given back, until END_STREAM or {@code deadlineNanos}.
     */
    void discardRest(long deadlineNanos) {
        discardDeadline = deadlineNanos | 1;
        connection.consumed(this, input.discard());
    }

    boolean discarding() {
        return discardDeadline != 0;
    }

    boolean discardOverdue(long now) {
        long deadline = discardDeadline;
        return deadline != 0 && resetCode() == null && now - deadline >= 0;
    }

    /** Whether END_STREAM went both ways without a reset: closed for the client, though its worker may not be done. */
    boolean closedBothWays() {
        return localEnded && resetCode() == null && input.hasEnded();
    }

    boolean localHasEnded() {
        return localEnded;
    }

    /** The response's END_STREAM has been queued. */
    void localEnded() {
        localEnded = true;
    }

    /** Runs the pending writable task; the outbound calls it when its windows or queue change. */
    void writableAgain() {
        Runnable task = writable;
        if (task != null) {
            writable = null;
            task.run();
        }
    }

    /** Loop (sweep): runs readiness tasks whose deadline passed. */
    void expire(long now) {
        input.expire(now);
        Runnable writeTask = writable;
        if (writeTask != null && now - writableDeadline >= 0) {
            writableAgain();
        }
    }

    void failIfReset() throws IOException {
        ErrorCode code = resetCode();
        if (code != null) {
            throw new IOException("The HTTP/2 stream was reset (" + code + ")");
        }
    }

    // ---- the worker's side, for the response wire ----

    void whenWritable(long deadlineNanos, Runnable task) {
        writableDeadline = deadlineNanos;
        writable = task;
        Http2Outbound outbound = connection.outbound();
        outbound.awaitWritable(this);
        if (outbound.writable(this)) {
            writableAgain();
        }
    }

    /**
     * Worker: this stream's writes that wait for the client's flow-control window, as work the pool may take back
     * when it is saturated ({@link SlowBodies}): the stream is then reset with {@code ENHANCE_YOUR_CALM} and the
     * write fails, as a stalled upload fails with 408. One writer at a time, so created without a race.
     */
    SlowBodies.Wait stalledWrites() {
        if (stalledWrites == null) {
            stalledWrites = connection.context().slowBodies().watch(() -> {
                connection.reset(this, ErrorCode.ENHANCE_YOUR_CALM);
                connection.outbound().wakeWriters();
            });
        }
        return stalledWrites;
    }

    Http2Connection connection() {
        return connection;
    }
}
