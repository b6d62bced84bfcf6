package io.sprout.engine.exchange;

import io.sprout.engine.buffer.BufferPool;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * What a non-blocking response could not send yet, in the order it goes: the framed bytes the socket did not take
 * ({@code pending}, often the pooled buffer itself, which is then released once sent), the handler's bytes of one
 * write larger than the buffer that came after them ({@code overflow}, not yet framed), and a {@link FileRegion}
 * queued after the bytes written before it. Used by one thread at a time.
 */
final class UnsentOutput {

    /** Where overflow bytes go once the pending ones are sent: framed like any body bytes. */
    @FunctionalInterface
    interface Framer {
        void write(byte[] src, int offset, int length) throws IOException;
    }

    private final ResponseWire wire;
    private final BufferPool pool;
    private ByteBuffer pending;
    private boolean pendingPooled;
    /** Overflow bytes are {@code overflow[overflowStart, overflowEnd)}. */
    private byte[] overflow;
    private int overflowStart;
    private int overflowEnd;
    private FileRegion region;

    UnsentOutput(ResponseWire wire, BufferPool pool) {
        this.wire = wire;
        this.pool = pool;
    }

    boolean isEmpty() {
        return pending == null && overflowEnd == overflowStart && region == null;
    }

    /** Queues {@code next} after the pending bytes; there is no overflow, since a region follows a ready response. */
    void queue(FileRegion next) {
        region = next;
    }

    /** Bytes of a queued file region not sent yet. */
    long regionRemaining() {
        return region == null ? 0 : region.remaining();
    }

    boolean hasPending() {
        return pending != null;
    }

    /** Keeps what the socket did not take of {@code outgoing}; a pooled buffer is kept as it is, anything else copied. */
    void keep(ByteBuffer outgoing, boolean pooledBuffer) {
        if (pooledBuffer) {
            pending = outgoing;
            pendingPooled = true;
        } else {
            pending = ByteBuffer.allocate(outgoing.remaining()).put(outgoing).flip();
            pendingPooled = false;
        }
    }

    /**
     * Keeps bytes that came after the pending ones. When they are the tail of this overflow itself (handed back by
     * {@link #sendNow} after the socket filled up again), only the start moves: nothing is copied, so draining a
     * large write costs no more than its size.
     */
    void keepOverflow(byte[] src, int offset, int length) {
        if (src == overflow && overflowStart == overflowEnd) {
            overflowStart = offset;
            overflowEnd = offset + length;
            return;
        }
        if (overflow == null || overflowEnd + length > overflow.length) {
            // Make room: what is kept moves to the front, of a larger array when it must grow.
            int kept = overflowEnd - overflowStart;
            byte[] target = overflow != null && kept + length <= overflow.length ? overflow
                    : new byte[Math.max(kept + length, kept * 2)];
            if (kept > 0) {
                System.arraycopy(overflow, overflowStart, target, 0, kept);
            }
            overflow = target;
            overflowStart = 0;
            overflowEnd = kept;
        }
        System.arraycopy(src, offset, overflow, overflowEnd, length);
        overflowEnd += length;
    }

    /**
     * Sends what the socket takes now: the pending bytes, then the overflow through {@code framer}.
     *
     * @return whether everything has been sent
     */
    boolean sendNow(Framer framer) throws IOException {
        while (true) {
            if (pending != null) {
                wire.writeNow(pending);
                if (pending.hasRemaining()) {
                    return false;
                }
                releasePending();
            }
            if (overflowEnd == overflowStart) {
                return sendRegionNow();
            }
            frameOverflow(framer);
        }
    }

    /** Sends what the socket takes of the region; one that is sent, or has failed, is no longer kept. */
    private boolean sendRegionNow() throws IOException {
        if (region == null) {
            return true;
        }
        FileRegion sending = region;
        region = null;
        if (sending.sendNow(wire::transferNow)) {
            return true;
        }
        region = sending;
        return false;
    }

    /**
     * Sends everything, waiting for the client as blocking writes do. A file region still unsent fails instead: its
     * bytes go only as the socket takes them, and the body they belong to cannot be completed without them.
     */
    void sendAll(Framer framer) throws IOException {
        if (region != null) {
            IOException incomplete = new IOException("The response was completed while a file region of "
                    + region.remaining() + " bytes was still being sent");
            region.fail(incomplete);
            region = null;
            throw incomplete;
        }
        if (pending != null) {
            wire.write(pending);
            releasePending();
        }
        if (overflowEnd > overflowStart) {
            frameOverflow(framer);
        }
    }

    /** The exchange has ended: a pooled pending buffer goes back to the pool; a file region fails, closing its file. */
    void release() {
        releasePending();
        if (region != null) {
            region.fail(new IOException("The exchange ended before its file region was sent"));
            region = null;
        }
    }

    /** Returns a pooled pending buffer to the pool, once sent or when the exchange ends. */
    private void releasePending() {
        if (pending != null && pendingPooled) {
            pool.release(pending);
        }
        pending = null;
    }

    /** Hands the overflow to the framer, which may give its tail back through {@link #keepOverflow}. */
    private void frameOverflow(Framer framer) throws IOException {
        int start = overflowStart;
        int length = overflowEnd - overflowStart;
        overflowStart = 0;
        overflowEnd = 0;
        framer.write(overflow, start, length);
    }
}
