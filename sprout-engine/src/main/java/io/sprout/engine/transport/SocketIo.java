package io.sprout.engine.transport;

import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;
import java.nio.channels.IllegalBlockingModeException;
import java.nio.channels.SocketChannel;

/**
 * The raw bytes of a {@link LoopConnection}, below TLS when there is TLS. Non-blocking while the event loop owns the
 * connection or a suspended exchange waits on it; in hybrid mode, blocking from the moment the worker serving the
 * connection would first wait for the client until it hands back, so that worker waits in plain blocking calls, as
 * that mode promises. A blocking read gives up after
 * the timeout {@link #readTimeout} set; a blocking write records its deadline so that the loop's sweep closes a
 * connection whose client stopped reading ({@link #writeOverdue}), which unblocks the writer.
 *
 * <p>The mode changes only while the key is cancelled (to blocking) or by the worker that owns the connection (back
 * to non-blocking). A call that raced a change to non-blocking finds out from the JDK before touching a byte and
 * is made again in the new mode.
 */
final class SocketIo implements ByteChannel {

    private final SocketChannel channel;
    private final long writeTimeoutNanos;
    private InputStream blockingIn;
    private volatile boolean blocking;
    private volatile int readTimeoutMillis = 1;
    private volatile long writeDeadlineNanos;

    SocketIo(SocketChannel channel, long writeTimeoutNanos) {
        this.channel = channel;
        this.writeTimeoutNanos = writeTimeoutNanos;
    }

    /** Whether reads and writes wait in the kernel now. */
    boolean blocking() {
        return blocking;
    }

    /** Switches the mode; to blocking only once the connection's selection key is cancelled. */
    void blocking(boolean block) throws IOException {
        if (block == blocking) {
            return;
        }
        if (block && blockingIn == null) {
            blockingIn = channel.socket().getInputStream();
        }
        channel.configureBlocking(block);
        blocking = block;
    }

    /** How long the next blocking reads may wait (at least a millisecond). */
    void readTimeout(long millis) {
        readTimeoutMillis = (int) Math.max(1, Math.min(millis, Integer.MAX_VALUE));
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        if (blocking) {
            try {
                return blockingRead(dst);
            } catch (IllegalBlockingModeException switchedMeanwhile) {
                // The owner switched to non-blocking before this read began: it reads as such.
            }
        }
        return channel.read(dst);
    }

    /** Writes what the socket takes: all of it in blocking mode, under the write deadline. */
    @Override
    public int write(ByteBuffer src) throws IOException {
        if (!blocking) {
            return channel.write(src);
        }
        writeDeadlineNanos = System.nanoTime() + writeTimeoutNanos;
        try {
            return channel.write(src);
        } finally {
            writeDeadlineNanos = 0;
        }
    }

    /** Ends a blocked read at once (it sees the end of the stream), leaving the output open for an answer. */
    void shutdownInput() {
        try {
            channel.shutdownInput();
        } catch (IOException alreadyClosed) {
            // Closed or reset meanwhile: the blocked read has failed anyway.
        }
    }

    /** Whether a blocking write has waited past the write timeout at {@code now}. */
    boolean writeOverdue(long now) {
        long deadline = writeDeadlineNanos;
        return deadline != 0 && now - deadline > 0;
    }

    @Override
    public boolean isOpen() {
        return channel.isOpen();
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }

    private int blockingRead(ByteBuffer dst) throws IOException {
        channel.socket().setSoTimeout(readTimeoutMillis);
        int count;
        try {
            count = blockingIn.read(dst.array(), dst.arrayOffset() + dst.position(), dst.remaining());
        } catch (SocketTimeoutException late) {
            throw new SocketTimeoutException("No bytes from the client within " + readTimeoutMillis + " ms");
        }
        if (count > 0) {
            dst.position(dst.position() + count);
        }
        return count;
    }
}
