package io.sprout.engine.exchange;

import io.sprout.engine.buffer.BufferPool;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * What a non-blocking response could not send yet: the framed bytes the socket did not take ({@code pending},
 * often the pooled buffer itself, which is then released once sent) and the handler's bytes of one write larger than
 * the buffer that came after them ({@code overflow}, not yet framed). Used by one thread at a time.
 */
final class UnsentOutput {

    /** Where overflow bytes go once the pending ones are sent: framed like any body bytes. */
    @FunctionalInterface
    interface Framer {
        void write(byte[] src, int offset, int length) throws IOException;
    }

    private final HttpConnection connection;
    private final BufferPool pool;
    private ByteBuffer pending;
    private boolean pendingPooled;
    private byte[] overflow;
    private int overflowLength;

    UnsentOutput(HttpConnection connection) {
        this.connection = connection;
        this.pool = connection.context().pool();
    }

    boolean isEmpty() {
        return pending == null && overflowLength == 0;
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

    void keepOverflow(byte[] src, int offset, int length) {
        if (overflow == null || overflow.length < overflowLength + length) {
            overflow = Arrays.copyOf(overflow == null ? new byte[0] : overflow,
                    Math.max(overflowLength + length, overflowLength * 2));
        }
        System.arraycopy(src, offset, overflow, overflowLength, length);
        overflowLength += length;
    }

    /**
     * Sends what the socket takes now: the pending bytes, then the overflow through {@code framer}.
     *
     * @return whether everything has been sent
     */
    boolean sendNow(Framer framer) throws IOException {
        while (true) {
            if (pending != null) {
                connection.writeNow(pending);
                if (pending.hasRemaining()) {
                    return false;
                }
                release();
            }
            if (overflowLength == 0) {
                return true;
            }
            byte[] rest = takeOverflow();
            framer.write(rest, 0, rest.length);
        }
    }

    /** Sends everything, waiting for the client as blocking writes do. */
    void sendAll(Framer framer) throws IOException {
        if (pending != null) {
            connection.write(pending);
            release();
        }
        if (overflowLength > 0) {
            byte[] rest = takeOverflow();
            framer.write(rest, 0, rest.length);
        }
    }

    /** Returns a pooled pending buffer to the pool; the exchange is ending or it has been sent. */
    void release() {
        if (pending != null && pendingPooled) {
            pool.release(pending);
        }
        pending = null;
    }

    private byte[] takeOverflow() {
        byte[] rest = Arrays.copyOf(overflow, overflowLength);
        overflowLength = 0;
        return rest;
    }
}
