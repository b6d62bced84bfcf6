package io.sprout.engine.tls;

import io.sprout.engine.buffer.BufferPool;

import java.nio.ByteBuffer;

/**
 * One of a TLS connection's buffers (incoming records, outgoing records, decrypted bytes not yet read), leased from
 * the server's record pool only while it holds bytes: an idle keep-alive connection holds none. Kept in read mode
 * between calls. A record larger than a pooled buffer (a peer that negotiated bigger records) gets a buffer of its
 * own, which the pool never sees.
 */
final class RecordBuffer {

    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private final BufferPool pool;
    private ByteBuffer buffer;
    private boolean pooled;

    RecordBuffer(BufferPool pool) {
        this.pool = pool;
    }

    /** The bytes held, in read mode; an empty buffer when none. */
    ByteBuffer readable() {
        return buffer == null ? EMPTY : buffer;
    }

    boolean hasRemaining() {
        return buffer != null && buffer.hasRemaining();
    }

    /**
     * The buffer in write mode, compacted, with room for at least {@code capacity} bytes in all (grown when the held
     * bytes and the room would not fit); pair with {@link #afterWrite()}.
     */
    ByteBuffer beforeWrite(int capacity) {
        if (buffer == null) {
            pooled = capacity <= pool.bufferSize();
            buffer = pooled ? pool.lease() : ByteBuffer.allocate(capacity);
            return buffer;
        }
        if (buffer.capacity() < capacity) {
            ByteBuffer larger = ByteBuffer.allocate(capacity).put(buffer);
            release();
            buffer = larger;
            pooled = false;
            return buffer;
        }
        return buffer.compact();
    }

    /** Back to read mode after writing into {@link #beforeWrite}'s buffer; an empty buffer goes back to the pool. */
    void afterWrite() {
        buffer.flip();
        releaseIfEmpty();
    }

    void releaseIfEmpty() {
        if (buffer != null && !buffer.hasRemaining()) {
            release();
        }
    }

    /** Gives the buffer back, dropping what it holds. */
    void release() {
        if (buffer != null) {
            if (pooled) {
                pool.release(buffer);
            }
            buffer = null;
        }
    }
}
