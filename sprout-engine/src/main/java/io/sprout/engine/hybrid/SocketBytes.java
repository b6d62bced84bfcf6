package io.sprout.engine.hybrid;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;
import java.util.concurrent.TimeUnit;

/**
 * The raw bytes of a hybrid connection as the {@link io.sprout.engine.tls.TlsChannel} above it reads and writes
 * them: blocking reads that give up at a deadline (the handshake's, or the current exchange read's), and blocking
 * writes under the connection's write watchdog. Reads go through the connection, so bytes a non-blocking reader's
 * wait already took come first.
 */
final class SocketBytes implements ByteChannel {

    private final HybridConnection connection;
    private volatile long readDeadlineNanos;

    SocketBytes(HybridConnection connection) {
        this.connection = connection;
    }

    /** Sets when the reads that follow give up with a {@link SocketTimeoutException}. */
    void readDeadline(long deadlineNanos) {
        readDeadlineNanos = deadlineNanos;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        long left = TimeUnit.NANOSECONDS.toMillis(readDeadlineNanos - System.nanoTime());
        if (left <= 0) {
            throw new SocketTimeoutException("No bytes from the client in time");
        }
        return connection.read(dst, left);
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        int count = src.remaining();
        connection.write(src);
        return count;
    }

    @Override
    public boolean isOpen() {
        return connection.isOpen();
    }

    @Override
    public void close() {
        connection.close();
    }
}
