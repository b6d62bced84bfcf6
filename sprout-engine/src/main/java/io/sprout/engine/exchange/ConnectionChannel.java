package io.sprout.engine.exchange;

import io.sprout.engine.TlsDetails;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * How bytes of one client connection move while an exchange runs. The non-blocking channel is tried and, when it
 * would block, the caller parks (or, for the readiness methods, a task is registered) until the event loop reports
 * readiness. The two transports differ only here: in hybrid mode the worker serving a dispatched request that would
 * block puts the socket in blocking mode instead and, from then until it hands the connection back or the exchange
 * suspends, reads and writes a blocking socket (a suspended exchange's tasks wait on the loop in both modes). The
 * blocking methods are called by one thread at a time, whichever thread is serving the exchange.
 *
 * <p>Public because transport's {@code WorkerChannel} implements it: the exchange states the channel it needs and the
 * transport below provides it, so the exchange never depends on a transport.
 */
public interface ConnectionChannel {

    /**
     * Reads at least one byte into {@code dst} (in write mode), waiting up to {@code timeoutMillis}.
     *
     * @return bytes read, or -1 when the client has closed its side
     * @throws java.net.SocketTimeoutException when nothing arrived in time
     */
    int read(ByteBuffer dst, long timeoutMillis) throws IOException;

    /**
     * Reads what has arrived, never waiting: for the next request head, between exchanges. A channel that cannot
     * read without waiting now (hybrid's socket in blocking mode) reads nothing.
     *
     * @return bytes read, 0 when none are there, or -1 when the client has closed its side
     */
    default int readNow(ByteBuffer dst) throws IOException {
        return 0;
    }

    /**
     * Writes every remaining byte of {@code src}, waiting while the client is slow to read, up to the server's
     * write timeout (after which the connection is closed and an exception thrown).
     */
    void write(ByteBuffer src) throws IOException;

    /**
     * Writes what the socket takes now, never waiting, except in hybrid mode once a worker has put the socket in
     * blocking mode: then it writes everything, as {@link #write} does. Bytes not taken must be offered again,
     * first, by the next write: over TLS they may already be encrypted and waiting, and are counted as written only
     * once their records are sent.
     *
     * @return bytes written
     */
    int writeNow(ByteBuffer src) throws IOException;

    /**
     * Whether {@link #transferNow} can send file bytes straight to the socket now: the connection is plaintext (over
     * TLS the bytes are encrypted in the heap) and its socket non-blocking. In hybrid mode that is not so once the
     * handler's worker has put the socket in blocking mode: a transfer there could not be left to the event loop, and
     * on a virtual thread, whose socket is non-blocking underneath, it would return nothing rather than wait.
     */
    default boolean sendsFiles() {
        return false;
    }

    /**
     * Sends what the socket takes now of {@code count} bytes of {@code file} from {@code position}, straight from
     * the file ({@link FileChannel#transferTo}: {@code sendfile} on Linux), never waiting. Only when
     * {@link #sendsFiles()}.
     *
     * @return bytes sent: 0 when the socket takes nothing now, or when the file ends at {@code position}
     */
    default long transferNow(FileChannel file, long position, long count) throws IOException {
        throw new IllegalStateException("This connection cannot send files");
    }

    /**
     * Runs {@code task} once, when a read would not wait, when {@code deadlineNanos} (a {@link System#nanoTime()}
     * value) passes, or when the connection closes, whichever comes first. The task must not block: the event loop
     * runs it. In hybrid mode, a task armed once the handler's worker has put the socket in blocking mode is
     * watched for once the exchange has suspended. One task at a time.
     */
    void whenReadable(long deadlineNanos, Runnable task);

    /** As {@link #whenReadable}, for a write that would not wait. */
    void whenWritable(long deadlineNanos, Runnable task);

    /**
     * The exchange has suspended: its handler returned without ending it, so no thread serves it until a readiness
     * callback, a task or another thread does. Called by the handler's worker before anything queued for the exchange
     * may run. Hybrid mode takes its socket out of blocking mode here, so the waits that follow hold no worker.
     */
    default void exchangeSuspended() {
    }

    /**
     * From any thread: ends the {@link #read} blocked now, or the next one, with a
     * {@link java.net.SocketTimeoutException}, as if its time had run out; writes still work, so the answer to the
     * failed body can be sent. Every later read may fail too: the connection is to be closed after that answer.
     */
    void cutReadShort();

    /** Closes the connection at once, from any thread; blocked reads and writes fail. */
    void abort();

    InetSocketAddress remoteAddress();

    InetSocketAddress localAddress();

    /** What the connection's TLS handshake negotiated, or {@code null} for a plaintext connection. */
    TlsDetails tls();
}
