package io.sprout.engine.exchange;

import io.sprout.engine.http.HeaderFields;
import io.sprout.engine.http2.ErrorCode;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntConsumer;

/**
 * The request half of an {@link Http2Stream}: the DATA the event loop copies in and the worker reading the body takes
 * out, the stream's receive window, END_STREAM with the trailers, and a reset, which ends the input too. The loop
 * and the worker meet under this object's lock; a worker waits on it for bytes ({@link #await}) or leaves a task for
 * when they come ({@link #whenReadable}).
 */
final class Http2StreamInput {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition arrived = lock.newCondition();
    private final ArrayDeque<ByteBuffer> received = new ArrayDeque<>();
    /** Gives read bytes back to the flow-control windows. */
    private final IntConsumer consumed;
    private int buffered;
    private long receiveWindow;
    private long receivedLength;
    private long declaredLength = -1;
    private boolean remoteEnded;
    private volatile ErrorCode reset;
    private volatile boolean resetByPeer;
    private int unacknowledged;
    private boolean discarding;
    private boolean readCutShort;
    private HeaderFields trailers;
    private Runnable readable;
    private long readableDeadline;

    Http2StreamInput(long receiveWindow, IntConsumer consumed) {
        this.receiveWindow = receiveWindow;
        this.consumed = consumed;
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

    /**
     * Loop: body bytes arrived; copied, since the loop's buffer is reused.
     *
     * @return how many were dropped instead (the stream was reset, or its rest is discarded), to give back
     */
    int add(ByteBuffer bytes) {
        int count = bytes.remaining();
        ByteBuffer copy = ByteBuffer.allocate(count).put(bytes).flip();
        Runnable task;
        lock.lock();
        try {
            if (reset != null || discarding) {
                return count;
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
        return 0;
    }

    /** Loop: END_STREAM arrived (with the last DATA frame, the HEADERS or the trailers). */
    void end(HeaderFields trailerFields) {
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

    boolean hasEnded() {
        lock.lock();
        try {
            return remoteEnded;
        } finally {
            lock.unlock();
        }
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
     * Marks the stream reset: waiters wake and the pending task runs.
     *
     * @return the buffered bytes dropped, to give back to the connection's window; -1 when it was reset already
     */
    int reset(ErrorCode code, boolean byPeer) {
        Runnable task;
        int dropped;
        lock.lock();
        try {
            if (reset != null) {
                return -1;
            }
            resetByPeer = byPeer;
            reset = code;
            dropped = clear();
            task = takeReadable();
            arrived.signalAll();
        } finally {
            lock.unlock();
        }
        run(task);
        return dropped;
    }

    ErrorCode resetCode() {
        return reset;
    }

    boolean resetByUs() {
        return reset != null && !resetByPeer;
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

    /** The request is not wanted any more: drops what is buffered and what still arrives; returns the bytes dropped. */
    int discard() {
        lock.lock();
        try {
            discarding = true;
            return clear();
        } finally {
            lock.unlock();
        }
    }

    /** Loop (sweep): runs the readable task if its deadline passed. */
    void expire(long now) {
        Runnable task = null;
        lock.lock();
        try {
            if (readable != null && now - readableDeadline >= 0) {
                task = takeReadable();
            }
        } finally {
            lock.unlock();
        }
        run(task);
    }

    // ---- the worker's side, for the request wire ----

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
            consumed.accept(count);
        }
        return count;
    }

    /** Whether END_STREAM arrived and every byte before it was taken. */
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
                // The connection's sweep checks the deadlines of every open stream.
                readable = task;
                readableDeadline = deadlineNanos;
                return;
            }
        } finally {
            lock.unlock();
        }
        task.run();
    }

    private int clear() {
        int dropped = buffered;
        received.clear();
        buffered = 0;
        return dropped;
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
