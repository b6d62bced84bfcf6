package io.sprout.engine.exchange;

import io.sprout.engine.buffer.BufferPool;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;

/**
 * A connection's bytes received but not yet consumed, in a pooled buffer leased only while it holds any: an idle
 * keep-alive connection holds no buffer. The head parser and the body stream consume from {@link #buffer()};
 * {@link #fill} reads more. Owned by whichever thread currently serves the connection.
 *
 * <p>Public because transport's {@code HeadReader} reads the socket into it and drains it while lingering, through
 * {@link HttpConnection#inbound()}: the buffer is the connection's, the reads are the transport's.
 */
public final class Inbound {

    private final BufferPool pool;
    private final Counters counters;
    private final ByteBuffer empty = ByteBuffer.allocate(0);
    private ByteBuffer buffer;

    public Inbound(BufferPool pool, Counters counters) {
        this.pool = pool;
        this.counters = counters;
    }

    /** The unconsumed bytes, in read mode; empty when nothing is buffered. */
    public ByteBuffer buffer() {
        return buffer == null ? empty : buffer;
    }

    public boolean hasBuffered() {
        return buffer != null && buffer.hasRemaining();
    }

    /** The buffer in write mode, compacted, for a read from the socket; pair with {@link #afterRead(int)}. */
    public ByteBuffer beforeRead() {
        if (buffer == null) {
            buffer = pool.lease();
        } else {
            buffer.compact();
        }
        return buffer;
    }

    /** Back to read mode after a socket read that returned {@code count}. */
    public void afterRead(int count) {
        buffer.flip();
        if (count > 0) {
            counters.bytesIn.add(count);
        }
        releaseIfEmpty();
    }

    /**
     * Reads more bytes through the channel.
     *
     * @return {@code false} when the client has closed its side
     */
    public boolean fill(ConnectionChannel channel, long timeoutMillis) throws IOException {
        ByteBuffer target = beforeRead();
        int count;
        try {
            count = channel.read(target, timeoutMillis);
        } catch (IOException e) {
            afterRead(0);
            throw e;
        }
        afterRead(count);
        return count >= 0;
    }

    /**
     * Reads what {@code channel} has and drops it, for a lingering connection whose answer is sent: the buffer is
     * borrowed for the read only.
     *
     * @return the read's count, or -1 at the end of the stream or when the read failed
     */
    public int discard(ReadableByteChannel channel) {
        ByteBuffer scratch = beforeRead();
        int count;
        try {
            count = channel.read(scratch);
        } catch (IOException endedAnyway) {
            // A reset or any other failure ends the linger just as the client's FIN does.
            count = -1;
        }
        scratch.clear();
        afterRead(0);
        return count;
    }

    /** Returns the buffer to the pool once everything in it is consumed. */
    public void releaseIfEmpty() {
        if (buffer != null && !buffer.hasRemaining()) {
            release();
        }
    }

    /** Returns the buffer to the pool, discarding anything unconsumed; for a connection that is closing. */
    public void release() {
        if (buffer != null) {
            pool.release(buffer);
            buffer = null;
        }
    }
}
