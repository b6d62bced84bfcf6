package io.sprout.engine.exchange;

import io.sprout.engine.buffer.BufferPool;

import java.nio.ByteBuffer;

/**
 * The response body's send buffer, laid out for its {@link ResponseWire} so that a flush is framed in place and
 * leaves in one write:
 *
 * <pre>
 *   [ wire's headroom ][ body bytes ][ wire's tailroom ]
 * </pre>
 *
 * Leased from the pool at the first write (allocated instead when the handler asked to hold more body bytes than a
 * pooled buffer does), returned when the response lets it go or the exchange ends, and handed over whole when the
 * socket did not take all of it ({@link #handOver()}). Used by one thread at a time.
 */
final class BodyBuffer {

    private final BufferPool pool;
    private final int headroom;
    private final int tailroom;
    private ByteBuffer buffer;
    private boolean pooled;
    private int capacity;

    BodyBuffer(BufferPool pool, int headroom, int tailroom) {
        this.pool = pool;
        this.headroom = headroom;
        this.tailroom = tailroom;
        this.capacity = defaultCapacity();
    }

    /** Body bytes held, not yet sent. */
    int buffered() {
        return buffer == null ? 0 : buffer.position() - headroom;
    }

    /** How many body bytes are held before a send must make room. */
    int capacity() {
        return capacity;
    }

    /** Sets the capacity; a held buffer too small for it goes back to the pool, and the next write gets a fit one. */
    void capacity(int size) {
        capacity = Math.max(size, 1);
        if (buffer != null && buffer.capacity() < headroom + capacity + tailroom) {
            release();
        }
    }

    /** Room left for body bytes, leasing a buffer if none is held. */
    int room() {
        return headroom + capacity - lease().position();
    }

    /** Appends body bytes; at most {@link #room()}, which was asked first. */
    void put(byte[] src, int offset, int length) {
        buffer.put(src, offset, length);
    }

    /** Removes the body bytes held and returns them: a body encoding installed at commit sends them encoded. */
    byte[] take() {
        byte[] bytes = new byte[buffered()];
        if (bytes.length > 0) {
            buffer.get(headroom, bytes);
            buffer.position(headroom);
        }
        return bytes;
    }

    /**
     * The body bytes held, as the region between the headroom and their end, for the wire to frame; leases a buffer
     * if none is held, since the wire may frame a head or a last chunk around no bytes at all.
     */
    ByteBuffer bodyRegion() {
        ByteBuffer target = lease();
        return target.limit(target.position()).position(headroom);
    }

    /** Whether {@code outgoing}, what the wire made of {@link #bodyRegion()}, is this buffer itself. */
    boolean holds(ByteBuffer outgoing) {
        return outgoing == buffer;
    }

    /**
     * The socket did not take all of this buffer: its unsent bytes belong to whoever keeps them from now on, and the
     * next write gets another buffer.
     *
     * @return whether the buffer handed over is a pooled one, to be released once sent
     */
    boolean handOver() {
        boolean wasPooled = pooled;
        buffer = null;
        return wasPooled;
    }

    /** Empties the buffer after a send, or drops the body bytes of a reset; a buffer held stays held. */
    void clear() {
        if (buffer != null) {
            buffer.clear().position(headroom);
        }
    }

    /** Returns the buffer to the pool unless body bytes wait in it. */
    void releaseIfEmpty() {
        if (buffered() == 0) {
            release();
        }
    }

    void release() {
        if (buffer != null && pooled) {
            pool.release(buffer);
        }
        buffer = null;
    }

    private ByteBuffer lease() {
        if (buffer == null) {
            if (capacity <= defaultCapacity()) {
                buffer = pool.lease();
                pooled = true;
            } else {
                buffer = ByteBuffer.allocate(headroom + capacity + tailroom);
                pooled = false;
            }
            buffer.position(headroom);
        }
        return buffer;
    }

    private int defaultCapacity() {
        return pool.bufferSize() - headroom - tailroom;
    }
}
