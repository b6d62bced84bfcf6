package io.sprout.engine.exchange;

import io.sprout.engine.buffer.BufferPool;
import io.sprout.engine.http.HeaderFields;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * The response body stream. Bytes collect in one pooled buffer laid out so a whole flush is a single write, with
 * room on both sides for the {@link ResponseWire} to frame in place (for HTTP/1.1, the head and a chunk-size line
 * before, the chunk's end and the last chunk after):
 *
 * <pre>
 *   [ wire's headroom ][ body bytes ][ wire's tailroom ]
 * </pre>
 *
 * The first send commits the response (see {@link ExchangeResponse#commit}); a body encoding installed by a
 * before-commit listener (compression) then sits between the handler's bytes and the framing. In non-blocking mode
 * a send writes what the socket takes and keeps the rest as {@code pending} (plus, for one write larger than the
 * buffer, an {@code overflow} copy) until the exchange drains it on writability. Used by one thread at a time.
 */
final class ResponseBody extends OutputStream {

    private final Exchange exchange;
    private final ExchangeResponse response;
    private final ResponseWire wire;
    private final BufferPool pool;
    /** The wire's room before and after the body bytes of {@link #buffer}. */
    private final int headroom;
    private final int tailroom;
    private ByteBuffer buffer;
    private boolean pooled;
    private int bodyCapacity;
    private long written;
    private boolean completed;
    private OutputStream encoder;
    private boolean nonBlocking;
    private UnsentOutput unsent;
    /** For {@link #write(int)}, which most writers never call. */
    private byte[] single;
    /** Created by startAsync: from then on calls are guarded against the exchange ending under them. */
    private volatile ReleaseGuard guard;
    /** The write that failed (the client left): the buffer holds a half-sent region, so all later calls fail. */
    private IOException broken;

    ResponseBody(Exchange exchange, ExchangeResponse response, ResponseWire wire, BufferPool pool) {
        this.exchange = exchange;
        this.response = response;
        this.wire = wire;
        this.pool = pool;
        this.headroom = wire.headroom();
        this.tailroom = wire.tailroom();
        this.bodyCapacity = defaultCapacity();
    }

    @Override
    public void write(int b) throws IOException {
        if (single == null) {
            single = new byte[1];
        }
        single[0] = (byte) b;
        write(single, 0, 1);
    }

    @Override
    public void write(byte[] src, int offset, int length) throws IOException {
        if (guard == null) {
            writeBody(src, offset, length);
            return;
        }
        guard.enter();
        try {
            writeBody(src, offset, length);
        } finally {
            guard.exit();
        }
    }

    private void writeBody(byte[] src, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, src.length);
        if (completed) {
            throw new IOException("The response is already complete");
        }
        if (nonBlocking && !ready()) {
            throw new IllegalStateException("A non-blocking write while the previous one is still being sent "
                    + "(responseReady() was false)");
        }
        written += length;
        long declared = response.declaredLength();
        if (declared >= 0 && written > declared && encoder == null) {
            throw new IOException("Wrote more than the declared Content-Length of " + declared);
        }
        if (encoder == null && !response.committed() && length > bodyCapacity - buffered()) {
            // This write commits the response: at a boundary of its own, once the buffer is full, so that a body
            // encoding the commit installs (compression) takes the rest of this write too, not only later ones.
            int first = bodyCapacity - buffered();
            writeFramed(src, offset, first);
            send(false);
            offset += first;
            length -= first;
        }
        if (encoder != null) {
            encoder.write(src, offset, length);
        } else {
            writeFramed(src, offset, length);
        }
    }

    /** Commits the response and sends what is buffered. */
    @Override
    public void flush() throws IOException {
        ReleaseGuard.run(guard, this::flushBody);
    }

    private void flushBody() throws IOException {
        if (completed) {
            return;
        }
        failIfBroken();
        if (encoder != null) {
            encoder.flush();
        }
        send(false);
    }

    /** Completes the response. */
    @Override
    public void close() throws IOException {
        complete();
    }

    /** Body bytes the handler has written so far (counted even when the response has no body). */
    long written() {
        return written;
    }

    /** Bytes the handler has written that are still buffered. */
    int buffered() {
        return buffer == null ? 0 : buffer.position() - headroom;
    }

    boolean completed() {
        return completed;
    }

    int bufferSize() {
        return bodyCapacity;
    }

    /** Sets how many body bytes are held before the response commits; larger than a pooled buffer allocates. */
    void bufferSize(int size) {
        if (written > 0 || response.committed()) {
            throw new IllegalStateException("The buffer size cannot change once body bytes are written");
        }
        bodyCapacity = Math.max(size, 1);
        if (buffer != null && buffer.capacity() < headroom + bodyCapacity + tailroom) {
            releaseBuffers();
        }
    }

    /** From now on a buffer is held only from a write to its flush (see {@link #send}); the committed head's goes. */
    void nonBlocking() {
        nonBlocking = true;
        try {
            ReleaseGuard.run(guard, this::releaseIfIdle);
        } catch (IOException ended) {
            // The exchange has ended: its buffers are released already.
        }
    }

    private void releaseIfIdle() {
        if (buffered() == 0) {
            returnBuffer();
        }
    }

    /** Whether a write can be taken without waiting: nothing is left unsent from an earlier send. */
    boolean ready() {
        return unsent == null || unsent.isEmpty();
    }

    /**
     * Writes what is pending as far as the socket takes it now (non-blocking mode).
     *
     * @return whether everything pending has been sent
     */
    boolean drainPending() throws IOException {
        if (unsent == null) {
            return true;
        }
        guard.enter();
        try {
            if (!unsent.sendNow(this::writeFramed)) {
                return false;
            }
            if (buffered() > 0) {
                // The overflow's tail is in the buffer: sent now, as the flush that followed the write asked.
                send(false);
            }
            return ready();
        } finally {
            guard.exit();
        }
    }

    /** Runs {@code task} once the wire takes more without waiting, at {@code deadlineNanos}, or at a close. */
    void whenWritable(long deadlineNanos, Runnable task) {
        wire.whenWritable(deadlineNanos, task);
    }

    /** Sends the rest and ends the framing, waiting for the client if it must; fails if a declared length was not met. */
    void complete() throws IOException {
        ReleaseGuard.run(guard, this::completeBody);
    }

    private void completeBody() throws IOException {
        if (completed) {
            return;
        }
        failIfBroken();
        nonBlocking = false;
        if (unsent != null) {
            unsent.sendAll(this::writeFramed);
        }
        if (!response.committed()) {
            commit(true);
        }
        if (encoder != null) {
            encoder.close();
        }
        send(true);
        completed = true;
        long declared = response.declaredLength();
        if (declared >= 0 && written < declared && response.framing().hasBody() && encoder == null) {
            throw new IOException("Wrote " + written + " of the declared Content-Length of " + declared);
        }
    }

    /** Drops buffered bytes (for {@link ExchangeResponse#reset()} and {@code resetBuffer()}). */
    void discard() {
        written = 0;
        if (buffer != null) {
            buffer.position(headroom);
        }
    }

    /**
     * The exchange has ended ({@link Exchange#ended()} already holds): the buffers go back to the pool, now, or when
     * a guarded call still running on another thread returns (so no thread writes into a buffer another connection
     * has leased meanwhile).
     */
    void release() {
        if (guard == null) {
            // Blocking exchange: the thread ending it is the one that wrote.
            releaseBuffers();
            return;
        }
        guard.releaseUnlessInUse();
    }

    /** From startAsync on, another thread may end the exchange while one writes: calls are then guarded. */
    void guardConcurrentRelease() {
        guard = new ReleaseGuard(exchange, this::releaseBuffers);
    }

    private void returnBuffer() {
        if (buffer != null && pooled) {
            pool.release(buffer);
        }
        buffer = null;
    }

    private void releaseBuffers() {
        returnBuffer();
        if (unsent != null) {
            unsent.release();
        }
    }

    private int defaultCapacity() {
        return pool.bufferSize() - headroom - tailroom;
    }

    private ByteBuffer buffer() throws IOException {
        failIfBroken();
        if (exchange.ended()) {
            // A write after the exchange ended (an abort, the client gone) would lease a buffer nobody returns.
            throw new IOException("The exchange has ended: its response can no longer be written");
        }
        if (buffer == null) {
            if (bodyCapacity <= defaultCapacity()) {
                buffer = pool.lease();
                pooled = true;
            } else {
                buffer = ByteBuffer.allocate(headroom + bodyCapacity + tailroom);
                pooled = false;
            }
            buffer.position(headroom);
        }
        return buffer;
    }

    /** Frames and buffers body bytes (after any encoding), sending whenever the buffer is full. */
    private void writeFramed(byte[] src, int offset, int length) throws IOException {
        if (response.committed() && !response.framing().hasBody()) {
            return;
        }
        int at = offset;
        int left = length;
        while (left > 0) {
            if (unsent != null && unsent.hasPending()) {
                unsent.keepOverflow(src, at, left);
                return;
            }
            ByteBuffer target = buffer();
            int room = headroom + bodyCapacity - target.position();
            if (room <= 0) {
                send(false);
                continue;
            }
            int count = Math.min(room, left);
            target.put(src, at, count);
            at += count;
            left -= count;
        }
    }

    /** Runs the before-commit listeners and takes the framing decision; installs a body encoding if one was asked. */
    private void commit(boolean complete) throws IOException {
        UnaryOperator<OutputStream> encoding = response.beforeCommit(complete, buffered());
        if (encoding == null) {
            response.commit(complete, written, false);
            return;
        }
        byte[] raw = new byte[buffered()];
        if (raw.length > 0) {
            buffer.get(headroom, raw);
            buffer.position(headroom);
        }
        response.commit(false, written, true);
        encoder = encoding.apply(new EncoderSink(this::writeFramed, () -> send(false)));
        encoder.write(raw);
    }

    private void send(boolean last) throws IOException {
        if (!response.committed()) {
            commit(last);
        }
        ByteBuffer target = buffer();
        if (last) {
            HeaderFields trailers = response.trailerFields();
            if (trailers != null) {
                wire.trailers(trailers);
            }
        }
        ByteBuffer outgoing = wire.frame(target.limit(target.position()).position(headroom), last);
        if (outgoing.hasRemaining()) {
            transmit(outgoing, outgoing == target);
        }
        if (buffer != null) {
            buffer.clear().position(headroom);
        }
        if (nonBlocking) {
            // A non-blocking response (a WebSocket, an event stream) may stay open and idle for hours: it holds no
            // buffer between flushes, and its next write leases one from the pool again.
            releaseIfIdle();
        }
    }

    private void failIfBroken() throws IOException {
        if (broken != null) {
            throw new IOException("The connection failed while the response was being sent", broken);
        }
    }

    /** Writes (blocking), or what the socket takes, keeping the rest (non-blocking); a failure breaks the body. */
    private void transmit(ByteBuffer outgoing, boolean isBuffer) throws IOException {
        try {
            if (!nonBlocking) {
                wire.write(outgoing);
                return;
            }
            wire.writeNow(outgoing);
        } catch (IOException failed) {
            broken = failed;
            throw failed;
        }
        if (!outgoing.hasRemaining()) {
            return;
        }
        if (unsent == null) {
            unsent = new UnsentOutput(wire, pool);
        }
        unsent.keep(outgoing, isBuffer && pooled);
        if (isBuffer) {
            // The buffer now holds unsent bytes; later writes lease another.
            buffer = null;
        }
    }
}
