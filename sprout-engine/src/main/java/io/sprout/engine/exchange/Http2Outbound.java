package io.sprout.engine.exchange;

import io.sprout.engine.TimeoutKind;
import io.sprout.engine.buffer.BufferPool;
import io.sprout.engine.hpack.HpackEncoder;
import io.sprout.engine.http.HeaderFields;
import io.sprout.engine.http2.ErrorCode;
import io.sprout.engine.http2.Flags;
import io.sprout.engine.http2.FrameType;
import io.sprout.engine.http2.Http2Exception;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The frames one HTTP/2 connection sends, from every thread that has something to send: the event loop (SETTINGS
 * and PING acknowledgements, WINDOW_UPDATE, RST_STREAM, GOAWAY) and the workers of its streams (HEADERS, DATA).
 * Frames are appended, whole and in order, into pooled buffers; whoever appended then {@link #flush}es, and one
 * thread at a time writes what the socket takes now. When it takes no more, the event loop carries on once the
 * socket is writable, so no thread ever waits on the socket here, and no stream waits for another.
 *
 * <p>What may be sent is bounded three ways, all under one lock: the connection's send window, each stream's send
 * window ({@link Http2Stream#sendWindow}), and the bytes queued here ({@link #HIGH_WATER}), so a client that does
 * not read holds back its streams' writers instead of growing memory. HPACK encodes under the same lock, because
 * header blocks must reach the client in the order the encoder's table saw them.
 *
 * <p>An idle connection holds no buffer: the last one written goes back to the pool.
 */
final class Http2Outbound {

    /** Queued bytes beyond which writers wait (blocking) or are told to come back (non-blocking). */
    static final int HIGH_WATER = 64 * 1024;
    /** How long a write waits for the client's window before its worker may be shed ({@link SlowBodies}). */
    private static final long STALL_EVIDENCE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition room = lock.newCondition();
    private final ConnectionChannel channel;
    private final Counters counters;
    private final long writeTimeoutNanos;
    private final Runnable onFailure;
    private final HpackEncoder encoder = new HpackEncoder();
    private final FrameQueue frames;
    private final List<Http2Stream> waiting = new ArrayList<>();
    private boolean flushing;
    private boolean awaitingWritable;
    private long stalledAt;
    private IOException failure;
    private long connectionWindow = 65_535;
    private int peerMaxFrameSize = 16_384;

    /** @param onFailure closes the connection; called once when a write fails or times out */
    Http2Outbound(ConnectionChannel channel, BufferPool pool, Counters counters, long writeTimeoutNanos,
            Runnable onFailure) {
        this.channel = channel;
        this.counters = counters;
        this.writeTimeoutNanos = writeTimeoutNanos;
        this.onFailure = onFailure;
        this.frames = new FrameQueue(pool);
    }

    /** Queues a whole control frame (or the {@code 101} of an h2c upgrade); dropped once the connection is closed. */
    void control(ByteBuffer frame) {
        append(frame.array(), frame.arrayOffset() + frame.position(), frame.remaining());
    }

    /**
     * Queues a header block: {@code status} (none for trailers) and {@code fields}, in CONTINUATION frames as needed.
     * Nothing is queued (nor encoded) once the stream was reset either way, as no frame may follow RST_STREAM (RFC
     * 9113 §5.1), nor once the connection is closed; the check is made under the lock that also queues RST_STREAM.
     */
    void headers(Http2Stream stream, int status, HeaderFields fields, boolean endStream) {
        lock.lock();
        try {
            if (failure != null || stream.resetCode() != null) {
                return;
            }
            encoder.start();
            if (status > 0) {
                encoder.status(status);
            }
            for (int i = 0; i < fields.size(); i++) {
                encoder.field(fields.name(i), fields.value(i));
            }
            frames.headerBlock(stream.id, encoder.bytes(), encoder.length(), maxPayload(), endStream);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Queues DATA frames of {@code src}'s bytes as far as the windows and the queue allow, waiting up to the write
     * timeout for them when {@code block}; the last frame ends the stream when {@code last} and every byte is queued.
     *
     * @return the bytes queued; {@code src} has advanced by as many
     * @throws IOException when the stream was reset, the connection failed or the wait timed out
     */
    int data(Http2Stream stream, ByteBuffer src, boolean last, boolean block) throws IOException {
        long deadline = System.nanoTime() + writeTimeoutNanos;
        int total = 0;
        SlowBodies.Wait stall = null;
        lock.lock();
        try {
            do {
                stream.failIfReset();
                if (failure != null) {
                    throw new IOException("The HTTP/2 connection failed", failure);
                }
                // A window may be negative (§6.9.2: a smaller SETTINGS_INITIAL_WINDOW_SIZE): nothing may be sent.
                int allowed = (int) Math.max(0, Math.min(Math.min(src.remaining(), maxPayload()),
                        Math.min(connectionWindow, stream.sendWindow)));
                if (src.hasRemaining() && (frames.queued() >= HIGH_WATER || allowed == 0)) {
                    if (!block) {
                        return total;
                    }
                    // What is queued goes out first: the client may be waiting for it before it opens the window.
                    lock.unlock();
                    try {
                        flush();
                    } finally {
                        lock.lock();
                    }
                    if (allowed == 0 && stall == null) {
                        // A worker waiting on the client's window may be taken back when the pool is saturated.
                        stall = stream.stalledWrites();
                        stall.begin(System.nanoTime() + STALL_EVIDENCE_NANOS);
                    }
                    awaitRoom(deadline);
                    continue;
                }
                if (stall != null) {
                    stall.end();
                    stall = null;
                }
                boolean ends = last && allowed == src.remaining();
                frames.frameHeader(allowed, FrameType.DATA, ends ? Flags.END_STREAM : 0, stream.id);
                frames.append(src.array(), src.arrayOffset() + src.position(), allowed);
                src.position(src.position() + allowed);
                connectionWindow -= allowed;
                stream.sendWindow -= allowed;
                total += allowed;
                if (ends) {
                    stream.localEnded();
                }
            } while (src.hasRemaining());
            return total;
        } finally {
            lock.unlock();
            if (stall != null) {
                stall.end();
            }
        }
    }

    /** Whether a DATA frame of the stream could be queued now. */
    boolean writable(Http2Stream stream) {
        lock.lock();
        try {
            return failure != null || stream.resetCode() != null
                    || frames.queued() < HIGH_WATER && connectionWindow > 0 && stream.sendWindow > 0;
        } finally {
            lock.unlock();
        }
    }

    /** Runs {@code stream}'s writable task once the windows or the queue change (or the connection fails). */
    void awaitWritable(Http2Stream stream) {
        lock.lock();
        try {
            if (!waiting.contains(stream)) {
                waiting.add(stream);
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Loop: the client's WINDOW_UPDATE for {@code stream}, or for the connection when {@code stream} is {@code null};
     * also a change of SETTINGS_INITIAL_WINDOW_SIZE by {@code delta} for a stream. A window above 2^31-1 is a
     * flow-control error of the stream, or of the connection (§6.9.1).
     */
    void windowUpdate(Http2Stream stream, long delta) {
        lock.lock();
        try {
            long window = (stream == null ? connectionWindow : stream.sendWindow) + delta;
            if (window > Integer.MAX_VALUE) {
                throw stream == null
                        ? Http2Exception.connection(ErrorCode.FLOW_CONTROL_ERROR, "Connection window above 2^31-1")
                        : Http2Exception.stream(stream.id, ErrorCode.FLOW_CONTROL_ERROR, "Stream window above 2^31-1");
            }
            if (stream == null) {
                connectionWindow = window;
            } else {
                stream.sendWindow = window;
            }
        } finally {
            lock.unlock();
        }
        wakeWriters();
    }

    /** Loop: the client's SETTINGS_HEADER_TABLE_SIZE and SETTINGS_MAX_FRAME_SIZE. */
    void peerSettings(long headerTableSize, long maxFrameSize) {
        lock.lock();
        try {
            if (headerTableSize >= 0) {
                encoder.peerMaxTableSize((int) Math.min(headerTableSize, Integer.MAX_VALUE));
            }
            if (maxFrameSize > 0) {
                peerMaxFrameSize = (int) maxFrameSize;
            }
        } finally {
            lock.unlock();
        }
    }

    /** Writes what the socket takes now; the event loop carries on when it takes no more. From any thread. */
    void flush() {
        lock.lock();
        try {
            if (flushing || awaitingWritable || failure != null) {
                return;
            }
            flushing = true;
        } finally {
            lock.unlock();
        }
        try {
            writeQueued();
        } catch (IOException e) {
            fail(e);
        }
    }

    /** Bytes waiting to be written: for the reader's back-pressure, and 0 when a closing connection may go. */
    long queued() {
        lock.lock();
        try {
            return frames.queued();
        } finally {
            lock.unlock();
        }
    }

    /** The connection is gone: waiters wake and fail, the buffers go back to the pool. */
    void close() {
        lock.lock();
        try {
            if (failure == null) {
                failure = new IOException("The HTTP/2 connection is closed");
            }
            room.signalAll();
            if (!flushing) {
                frames.release();
            }
        } finally {
            lock.unlock();
        }
        wakeWriters();
    }

    private void append(byte[] bytes, int offset, int length) {
        lock.lock();
        try {
            if (failure == null) {
                frames.append(bytes, offset, length);
            }
        } finally {
            lock.unlock();
        }
    }

    private void writeQueued() throws IOException {
        while (true) {
            ByteBuffer next;
            lock.lock();
            try {
                next = frames.next();
                if (next == null) {
                    flushing = false;
                    stalledAt = 0;
                    return;
                }
            } finally {
                lock.unlock();
            }
            int count = channel.writeNow(next);
            counters.bytesOut.add(count);
            boolean stalled;
            lock.lock();
            try {
                stalled = next.hasRemaining();
                frames.written(next, count);
                if (failure != null) {
                    // Closed while this thread wrote: no one else may hand the buffers back now.
                    frames.release();
                    flushing = false;
                    return;
                }
                if (stalled) {
                    flushing = false;
                    awaitingWritable = true;
                    if (count > 0 || stalledAt == 0) {
                        stalledAt = System.nanoTime();
                    }
                }
                room.signalAll();
            } finally {
                lock.unlock();
            }
            if (count > 0) {
                wakeWriters();
            }
            if (stalled) {
                channel.whenWritable(stalledAt + writeTimeoutNanos, this::writable);
                return;
            }
        }
    }

    /** Loop: the socket is writable again, or the write timeout passed. */
    private void writable() {
        boolean overdue;
        lock.lock();
        try {
            awaitingWritable = false;
            overdue = System.nanoTime() - (stalledAt + writeTimeoutNanos) >= 0;
        } finally {
            lock.unlock();
        }
        if (overdue) {
            counters.timedOut(TimeoutKind.WRITE);
            fail(new SocketTimeoutException("The client did not read the HTTP/2 connection's frames in time"));
            return;
        }
        flush();
    }

    private void fail(IOException e) {
        lock.lock();
        try {
            failure = failure == null ? e : failure;
            flushing = false;
            room.signalAll();
        } finally {
            lock.unlock();
        }
        wakeWriters();
        onFailure.run();
    }

    private void awaitRoom(long deadline) throws IOException {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            counters.timedOut(TimeoutKind.WRITE);
            throw new SocketTimeoutException("No flow-control window or room to send within the write timeout");
        }
        try {
            room.awaitNanos(Math.min(left, TimeUnit.SECONDS.toNanos(1)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("Interrupted while waiting for a flow-control window");
        }
    }

    /**
     * Wakes every writer to look again (windows or room changed, or a stream was reset under it): blocked ones
     * wake, waiting non-blocking ones' tasks run. Never under the lock, since their tasks may queue work.
     */
    void wakeWriters() {
        List<Http2Stream> due;
        lock.lock();
        try {
            room.signalAll();
            if (waiting.isEmpty()) {
                return;
            }
            due = List.copyOf(waiting);
            waiting.clear();
        } finally {
            lock.unlock();
        }
        for (Http2Stream stream : due) {
            stream.writableAgain();
        }
    }

    private int maxPayload() {
        // A frame always fits one pooled buffer, so queued frames never need a buffer of their own.
        return Math.min(peerMaxFrameSize, frames.maxPayload());
    }
}
