package io.sprout.engine.exchange;

import io.sprout.engine.buffer.BufferPool;
import io.sprout.engine.http2.Flags;
import io.sprout.engine.http2.FrameType;
import io.sprout.engine.http2.FrameWriter;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * The bytes of the frames an HTTP/2 connection has queued and not yet written, in pooled buffers: frames are
 * appended to the one being filled, which joins the ready ones when it is full or when the writer takes it. A frame
 * never spans two buffers (a frame's payload is at most a buffer less its header, see
 * {@link Http2Outbound}), so the writer always writes whole buffers. Holds no buffer while empty. Not thread-safe:
 * {@link Http2Outbound} guards it with its lock.
 */
final class FrameQueue {

    private final BufferPool pool;
    private final ArrayDeque<ByteBuffer> ready = new ArrayDeque<>();
    private ByteBuffer filling;
    private long queued;

    FrameQueue(BufferPool pool) {
        this.pool = pool;
    }

    /** The largest frame payload a buffer holds after the frame's header. */
    int maxPayload() {
        return pool.bufferSize() - FrameWriter.HEADER_LENGTH;
    }

    /** Starts a frame whose payload of {@code length} bytes follows in the same buffer. */
    void frameHeader(int length, int type, int flags, int streamId) {
        ensureRoom(FrameWriter.HEADER_LENGTH + length);
        FrameWriter.header(filling.array(), filling.arrayOffset() + filling.position(), length, type, flags,
                streamId);
        filling.position(filling.position() + FrameWriter.HEADER_LENGTH);
        queued += FrameWriter.HEADER_LENGTH;
    }

    void append(byte[] bytes, int offset, int length) {
        int at = offset;
        int left = length;
        while (left > 0) {
            ensureRoom(Math.min(left, pool.bufferSize()));
            int count = Math.min(left, filling.remaining());
            filling.put(bytes, at, count);
            at += count;
            left -= count;
        }
        queued += length;
    }

    /**
     * Appends a header block of {@code length} bytes as a HEADERS frame and as many CONTINUATION frames as payloads
     * of {@code maxPayload} need; the first frame carries {@code endStream}'s flag, the last END_HEADERS.
     */
    void headerBlock(int streamId, byte[] block, int length, int maxPayload, boolean endStream) {
        int offset = 0;
        int type = FrameType.HEADERS;
        int flags = endStream ? Flags.END_STREAM : 0;
        do {
            int count = Math.min(maxPayload, length - offset);
            boolean end = offset + count == length;
            frameHeader(count, type, flags | (end ? Flags.END_HEADERS : 0), streamId);
            append(block, offset, count);
            offset += count;
            type = FrameType.CONTINUATION;
            flags = 0;
        } while (offset < length);
    }

    /** The buffer to write next (in read mode), or {@code null} when nothing is queued. */
    ByteBuffer next() {
        if (ready.isEmpty() && filling != null && filling.position() > 0) {
            ready.add(filling.flip());
            filling = null;
        }
        return ready.peek();
    }

    /** {@code count} bytes of {@link #next()} were written; a buffer written whole goes back to the pool. */
    void written(ByteBuffer next, int count) {
        queued -= count;
        if (!next.hasRemaining()) {
            ready.poll();
            pool.release(next);
        }
    }

    /** Bytes queued and not yet written. */
    long queued() {
        return queued;
    }

    /** Drops what is queued; every buffer goes back to the pool. */
    void release() {
        for (ByteBuffer buffer : ready) {
            pool.release(buffer);
        }
        ready.clear();
        if (filling != null) {
            pool.release(filling);
            filling = null;
        }
        queued = 0;
    }

    /** Makes room for {@code length} contiguous bytes, starting a new buffer when the current one lacks it. */
    private void ensureRoom(int length) {
        if (filling != null && filling.remaining() >= length) {
            return;
        }
        if (filling != null) {
            ready.add(filling.flip());
        }
        filling = pool.lease();
        filling.clear();
    }
}
