package io.sprout.engine.exchange;

import io.sprout.engine.http.BodyFraming;
import io.sprout.engine.http.HeaderFields;
import io.sprout.engine.http.HttpException;
import io.sprout.engine.http.RequestHead;
import io.sprout.engine.http2.ErrorCode;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

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
 * The loop writes what arrives and the worker reads it under the stream's lock; the send window is the outbound's,
 * under its lock.
 */
final class Http2Stream implements ExchangeStream {

    final int id;
    /** Guarded by the outbound's lock. */
    long sendWindow;
    private final Http2Connection connection;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition arrived = lock.newCondition();
    private final ArrayDeque<ByteBuffer> received = new ArrayDeque<>();
    private int buffered;
    private long receiveWindow;
    private long receivedLength;
    private long declaredLength = -1;
    private boolean remoteEnded;
    private volatile boolean localEnded;
    private volatile ErrorCode reset;
    private boolean resetByPeer;
    private int unacknowledged;
    private volatile Exchange exchange;
    /** Once the exchange is over with the request still arriving: when to give up on its end; 0 before. */
    private volatile long discardDeadline;
    private boolean readCutShort;
    private HeaderFields trailers;
    private Runnable readable;
    private long readableDeadline;
    private volatile Runnable writable;
    private volatile long writableDeadline;

    Http2Stream(int id, Http2Connection connection, long sendWindow, long receiveWindow) {
        this.id = id;
        this.connection = connection;
        this.sendWindow = sendWindow;
        this.receiveWindow = receiveWindow;
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
        lock.lock();
        try {
            // Without Content-Length the body runs until END_STREAM, like a chunked HTTP/1.1 body.
            return declared == BodyFraming.NONE && !(remoteEnded && received.isEmpty())
                    ? new BodyFraming.Chunked() : declared;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public RequestWire requestWire(BodyFraming framing, boolean expectContinue) {
        return new Http2RequestWire(this, expectContinue && !remoteHasEnded());
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

    // ---- the event loop's side ----

    /**
     * Loop: a DATA frame of {@code flowControlled} bytes begins; counts it against the stream's window.
     *
     * @return whether the stream still takes data (else the bytes are dropped and given back to the connection)
     */
    boolean dataFrame(int flowControlled) {
        lock.lock();
        try {
            receiveWindow -= flowControlled;
            return reset == null && receiveWindow >= 0;
        } finally {
            lock.unlock();
        }
    }

    /** Loop: body bytes arrived; copied, since the loop's buffer is reused (dropped once the exchange is over). */
    void received(ByteBuffer bytes) {
        int count = bytes.remaining();
        if (count == 0) {
            return;
        }
        if (discardDeadline != 0) {
            bytes.position(bytes.limit());
            connection.consumed(this, count);
            return;
        }
        ByteBuffer copy = ByteBuffer.allocate(count).put(bytes).flip();
        Runnable task;
        lock.lock();
        try {
            if (reset != null) {
                return;
            }
            received.add(copy);
            buffered += count;
            receivedLength += count;
            task = takeReadable();
            arrived.signalAll();
        } finally {
            lock.unlock();
        }
        run(task);
    }

    /** Loop: END_STREAM arrived (with the last DATA frame, the HEADERS or the trailers). */
    void remoteEnded(HeaderFields trailerFields) {
        Runnable task;
        lock.lock();
        try {
            remoteEnded = true;
            trailers = trailerFields;
            task = takeReadable();
            arrived.signalAll();
        } finally {
            lock.unlock();
        }
        run(task);
    }

    /** Whether the body received so far disagrees with its Content-Length (§8.1.1: malformed). */
    boolean lengthMismatch(boolean ending) {
        lock.lock();
        try {
            return declaredLength >= 0 && (receivedLength > declaredLength || ending && receivedLength != declaredLength);
        } finally {
            lock.unlock();
        }
    }

    boolean remoteHasEnded() {
        lock.lock();
        try {
            return remoteEnded;
        } finally {
            lock.unlock();
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
        Runnable readTask;
        int dropped;
        lock.lock();
        try {
            if (reset != null) {
                return false;
            }
            reset = code;
            resetByPeer = byPeer;
            dropped = buffered;
            received.clear();
            buffered = 0;
            readTask = takeReadable();
            arrived.signalAll();
        } finally {
            lock.unlock();
        }
        connection.released(dropped);
        run(readTask);
        writableAgain();
        return true;
    }

    /** Whether we reset the stream (late frames from the client are then ignored, §5.1). */
    boolean resetByUs() {
        return reset != null && !resetByPeer;
    }

    /** The client reset the stream, or the connection closed: an exchange waiting without a thread learns it now. */
    void abortExchange() {
        Exchange current = exchange;
        if (current != null && current.asyncExchange() != null) {
            current.abort(new IOException("The HTTP/2 stream was reset or its connection closed"));
        }
    }

    void exchange(Exchange value) {
        exchange = value;
    }

    void declaredLength(long value) {
        lock.lock();
        try {
            declaredLength = value;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Counts {@code count} bytes read (or padding) towards the next WINDOW_UPDATE of the stream.
     *
     * @return the increment to send now, once at least {@code threshold} bytes are due and the body goes on; else 0
     */
    int credit(int count, int threshold) {
        lock.lock();
        try {
            unacknowledged += count;
            if (unacknowledged < threshold || remoteEnded || reset != null) {
                return 0;
            }
            int increment = unacknowledged;
            receiveWindow += increment;
            unacknowledged = 0;
            return increment;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Worker: the exchange is over but the request goes on; what is buffered and what still arrives is dropped,
     * its window given back, until END_STREAM or {@code deadlineNanos}.
     */
    void discardRest(long deadlineNanos) {
        int dropped;
        lock.lock();
        try {
            discardDeadline = deadlineNanos | 1;
            dropped = buffered;
            received.clear();
            buffered = 0;
        } finally {
            lock.unlock();
        }
        connection.consumed(this, dropped);
    }

    boolean discarding() {
        return discardDeadline != 0;
    }

    boolean discardOverdue(long now) {
        long deadline = discardDeadline;
        return deadline != 0 && reset == null && now - deadline >= 0;
    }

    ErrorCode resetCode() {
        return reset;
    }

    /** Whether END_STREAM went both ways without a reset: closed for the client, though its worker may not be done. */
    boolean closedBothWays() {
        return localEnded && reset == null && remoteHasEnded();
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
        Runnable readTask = null;
        lock.lock();
        try {
            if (readable != null && now - readableDeadline >= 0) {
                readTask = takeReadable();
            }
        } finally {
            lock.unlock();
        }
        run(readTask);
        Runnable writeTask = writable;
        if (writeTask != null && now - writableDeadline >= 0) {
            writableAgain();
        }
    }

    void failIfReset() throws IOException {
        ErrorCode code = reset;
        if (code != null) {
            throw new IOException("The HTTP/2 stream was reset (" + code + ")");
        }
    }

    // ---- the worker's side, for the wires ----

    /** Takes body bytes into {@code dst}: the count, 0 when none are there yet, -1 at the end of the body. */
    int take(byte[] dst, int offset, int length) {
        int count = 0;
        lock.lock();
        try {
            while (count < length && !received.isEmpty()) {
                ByteBuffer head = received.peek();
                int n = Math.min(length - count, head.remaining());
                head.get(dst, offset + count, n);
                count += n;
                if (!head.hasRemaining()) {
                    received.poll();
                }
            }
            buffered -= count;
            if (count == 0 && remoteEnded && reset == null) {
                return -1;
            }
        } finally {
            lock.unlock();
        }
        if (count > 0) {
            connection.consumed(this, count);
        }
        return count;
    }

    boolean ended() {
        lock.lock();
        try {
            return remoteEnded && received.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    int buffered() {
        lock.lock();
        try {
            return buffered;
        } finally {
            lock.unlock();
        }
    }

    long remainingLength() {
        lock.lock();
        try {
            return declaredLength < 0 ? -1 : declaredLength - receivedLength + buffered;
        } finally {
            lock.unlock();
        }
    }

    HeaderFields trailers() {
        lock.lock();
        try {
            return trailers != null ? trailers : new HeaderFields(0);
        } finally {
            lock.unlock();
        }
    }

    /** Waits for body bytes: how many are buffered, -1 once the stream was reset, a timeout when none came. */
    int await(long timeoutMillis) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        lock.lock();
        try {
            while (reset != null || received.isEmpty() && !remoteEnded) {
                // Reset even after END_STREAM: the body is gone, and a reader must fail rather than retry at once.
                if (reset != null) {
                    throw new IOException("The HTTP/2 stream was reset (" + reset + ")");
                }
                long left = deadline - System.nanoTime();
                if (readCutShort || left <= 0) {
                    throw new SocketTimeoutException(readCutShort ? "The read was cut short: its worker was needed"
                            : "No request body bytes within " + timeoutMillis + " ms");
                }
                arrived.awaitNanos(left);
            }
            return buffered;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("Interrupted while waiting for the request body");
        } finally {
            lock.unlock();
        }
    }

    void cutReadShort() {
        lock.lock();
        try {
            readCutShort = true;
            arrived.signalAll();
        } finally {
            lock.unlock();
        }
    }

    void whenReadable(long deadlineNanos, Runnable task) {
        lock.lock();
        try {
            if (received.isEmpty() && !remoteEnded && reset == null) {
                readable = task;
                readableDeadline = deadlineNanos;
                connection.watchDeadlines(this);
                return;
            }
        } finally {
            lock.unlock();
        }
        task.run();
    }

    void whenWritable(long deadlineNanos, Runnable task) {
        writableDeadline = deadlineNanos;
        writable = task;
        connection.watchDeadlines(this);
        Http2Outbound outbound = connection.outbound();
        outbound.awaitWritable(this);
        if (outbound.writable(this)) {
            writableAgain();
        }
    }

    Http2Connection connection() {
        return connection;
    }

    private Runnable takeReadable() {
        Runnable task = readable;
        readable = null;
        return task;
    }

    private static void run(Runnable task) {
        if (task != null) {
            task.run();
        }
    }
}
