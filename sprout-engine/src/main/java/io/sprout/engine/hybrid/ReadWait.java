package io.sprout.engine.hybrid;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A non-blocking reader's wait on a blocking socket, which cannot be polled: one blocking read, run on a worker of
 * its own, that keeps what it got (bytes, the end of the stream or a failure) for the connection's next read. The
 * wait thus happens outside the exchange's task slot, and the bytes still enter the connection's buffer inside it.
 *
 * <p>{@link #readFrom} runs once, on the waiting worker; {@link #takeInto} is called by the one thread that reads
 * the connection at a time, after the readiness task (queued once the wait ends) or instead of it.
 */
final class ReadWait {

    private static final int SIZE = 8192;

    private final CountDownLatch done = new CountDownLatch(1);
    private byte[] bytes;
    private int start;
    private int end;
    private IOException failure;

    /** Blocks until bytes arrive, the client closes, the read fails or {@code deadlineNanos} passes. */
    void readFrom(Socket socket, InputStream in, long deadlineNanos) {
        try {
            long left = deadlineNanos - System.nanoTime();
            if (left > 0) {
                byte[] buffer = new byte[SIZE];
                // Rounded up: giving up just before the deadline would make the reader wait a whole timeout more.
                socket.setSoTimeout((int) Math.min(TimeUnit.NANOSECONDS.toMillis(left) + 1, Integer.MAX_VALUE));
                end = in.read(buffer);
                bytes = buffer;
            }
        } catch (SocketTimeoutException deadlinePassed) {
            // Nothing arrived in time: the reader's own deadline check reports it.
        } catch (IOException e) {
            failure = e;
        } finally {
            done.countDown();
        }
    }

    /**
     * Moves what the wait got into {@code dst} (in write mode), waiting up to {@code timeoutMillis} for the wait.
     *
     * @return bytes moved, -1 at the end of the stream, or 0 when the wait ended empty (its deadline passed)
     * @throws SocketTimeoutException when the wait is still going on
     */
    int takeInto(ByteBuffer dst, long timeoutMillis) throws IOException {
        try {
            if (!done.await(timeoutMillis, TimeUnit.MILLISECONDS)) {
                throw new SocketTimeoutException("No request bytes within " + timeoutMillis + " ms");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("Interrupted while waiting for the client");
        }
        if (failure != null) {
            IOException failed = failure;
            failure = null;
            throw failed;
        }
        if (bytes == null || end < 0) {
            return bytes == null ? 0 : -1;
        }
        int count = Math.min(dst.remaining(), end - start);
        dst.put(bytes, start, count);
        start += count;
        return count;
    }

    /** Whether nothing is left to take, so the next read goes to the socket. */
    boolean taken() {
        return done.getCount() == 0 && failure == null && (bytes == null || end < 0 || start == end);
    }
}
