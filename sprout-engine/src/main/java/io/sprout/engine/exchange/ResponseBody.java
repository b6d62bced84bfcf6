package io.sprout.engine.exchange;

import io.sprout.engine.buffer.BufferPool;
import io.sprout.engine.http.HeaderFields;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * The response body stream. Bytes collect in one {@link BodyBuffer}, with room on both sides for the
 * {@link ResponseWire} to frame in place (for HTTP/1.1, the head and a chunk-size line before, the chunk's end and
 * the last chunk after), so a whole flush is a single write. The first send commits the response (see
 * {@link ExchangeResponse#commit}); a body encoding installed by a before-commit listener (compression) then sits
 * between the handler's bytes and the framing. In non-blocking mode
 * a send writes what the socket takes and keeps the rest as {@code pending} (plus, for one write larger than the
 * buffer, an {@code overflow} copy) until the exchange drains it on writability; a {@link FileRegion} waits there
 * too, sent from its file as the socket takes it. Used by one thread at a time.
 */
final class ResponseBody extends OutputStream {

    private final Exchange exchange;
    private final ExchangeResponse response;
    private final ResponseWire wire;
    private final BufferPool pool;
    private final BodyBuffer buffer;
    private long written;
    private boolean completed;
    private OutputStream encoder;
    private boolean nonBlocking;
    private UnsentOutput unsent;
    /** For {@link #write(int)}, made on its first call: most writers never make one. */
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
        this.buffer = new BodyBuffer(pool, wire.headroom(), wire.tailroom());
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
        countWritten(length);
        if (encoder == null && !response.committed() && length > buffer.capacity() - buffered()) {
            // This write commits the response: at a boundary of its own, once the buffer is full, so that a body
            // encoding the commit installs (compression) takes the rest of this write too, not only later ones.
            int first = buffer.capacity() - buffered();
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

    private void countWritten(long length) throws IOException {
        written += length;
        response.checkWithinDeclared(written, encoder != null);
    }

    /** See {@link io.sprout.engine.AsyncExchange#sendsFileRegions()}; a response without a body takes any region. */
    boolean sendsFileRegions() {
        return nonBlocking && response.committed() && encoder == null
                && (!response.framing().hasBody() || wire.sendsFileRegions());
    }

    /**
     * Queues {@code region} after the bytes written so far (those still buffered are sent first) and sends what the
     * socket takes; {@link #drainPending} sends the rest. A failure fails the region and breaks the body.
     */
    void sendFileRegion(FileRegion region) throws IOException {
        ReleaseGuard.run(guard, () -> {
            if (!sendsFileRegions() || !ready()) {
                throw new IllegalStateException("A file region needs a committed response whose bytes go as they are "
                        + "(sendsFileRegions()) and that is ready (responseReady())");
            }
            try {
                countWritten(region.remaining());
                if (!response.framing().hasBody()) {
                    region.skip();
                    return;
                }
                if (buffered() > 0) {
                    send(false);
                }
                unsent().queue(region);
                unsent.sendNow(this::writeFramed);
            } catch (IOException failed) {
                broken = failed;
                throw failed;
            }
        });
    }

    /** Bytes of a queued file region not sent yet: their progress renews the write deadline. */
    long unsentFileBytes() {
        return unsent == null ? 0 : unsent.regionRemaining();
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
        return buffer.buffered();
    }

    boolean completed() {
        return completed;
    }

    int bufferSize() {
        return buffer.capacity();
    }

    /** Sets how many body bytes are held before the response commits; larger than a pooled buffer allocates. */
    void bufferSize(int size) {
        if (written > 0 || response.committed()) {
            throw new IllegalStateException("The buffer size cannot change once body bytes are written");
        }
        buffer.capacity(size);
    }

    /** From now on a buffer is held only from a write to its flush (see {@link #send}); the committed head's goes. */
    void nonBlocking() {
        nonBlocking = true;
        try {
            ReleaseGuard.run(guard, buffer::releaseIfEmpty);
        } catch (IOException ended) {
            // The exchange has ended: its buffers are released already.
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
        response.checkDeclaredMet(written, encoder != null);
    }

    /** Drops buffered bytes (for {@link ExchangeResponse#reset()} and {@code resetBuffer()}). */
    void discard() {
        written = 0;
        buffer.clear();
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

    private void releaseBuffers() {
        buffer.release();
        if (unsent != null) {
            unsent.release();
        }
    }

    /** Before the buffer is leased for body bytes or a send. */
    private void ensureWritable() throws IOException {
        failIfBroken();
        if (exchange.ended()) {
            // A write after the exchange ended (an abort, the client gone) would lease a buffer nobody returns.
            throw new IOException("The exchange has ended: its response can no longer be written");
        }
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
            ensureWritable();
            int room = buffer.room();
            if (room <= 0) {
                send(false);
                continue;
            }
            int count = Math.min(room, left);
            buffer.put(src, at, count);
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
        byte[] raw = buffer.take();
        response.commit(false, written, true);
        encoder = encoding.apply(new EncoderSink(this::writeFramed, () -> send(false)));
        encoder.write(raw);
    }

    private void send(boolean last) throws IOException {
        if (!response.committed()) {
            commit(last);
        }
        ensureWritable();
        if (last) {
            HeaderFields trailers = response.trailerFields();
            if (trailers != null) {
                wire.trailers(trailers);
            }
        }
        ByteBuffer outgoing = wire.frame(buffer.bodyRegion(), last);
        if (outgoing.hasRemaining()) {
            transmit(outgoing, buffer.holds(outgoing));
        }
        buffer.clear();
        if (nonBlocking) {
            // A non-blocking response (a WebSocket, an event stream) may stay open and idle for hours: it holds no
            // buffer between flushes, and its next write leases one from the pool again.
            buffer.releaseIfEmpty();
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
        boolean pooledBuffer = false;
        if (isBuffer) {
            // The buffer is kept as it is, with its unsent bytes; later writes lease another.
            pooledBuffer = buffer.handOver();
        }
        unsent().keep(outgoing, pooledBuffer);
    }

    private UnsentOutput unsent() {
        if (unsent == null) {
            unsent = new UnsentOutput(wire, pool);
        }
        return unsent;
    }
}
