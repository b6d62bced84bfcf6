package io.sprout.engine.websocket;

import io.sprout.engine.AsyncExchange;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A connection's outgoing frames: queued in call order, written by one thread at a time. The thread that queues a
 * frame while nobody writes becomes the writer ({@link #enqueue} returns {@code true}) and writes until the queue is
 * empty; when the socket takes no more (the response is non-blocking, and so is the socket in either mode once the
 * upgraded exchange has suspended), writing continues in the engine's writability callback. At most
 * {@code maxQueuedBytes} wait behind a frame being written: a send beyond that fails at once, so a client that does
 * not read costs bounded memory. A frame larger than the bound is taken when nothing else waits.
 * Thread-safe.
 *
 * <p>A frame waits as its first header byte and its payload: the writer encodes the rest of the header into the
 * exchange's buffer next to the payload, so a frame is never copied whole before it is written. The writer takes
 * every frame queued by the time it gets to them and flushes once, so frames that piled up while it wrote share one
 * write to the socket.
 */
final class Outbound {

    private record Frame(int firstByte, ByteBuffer payload, CompletableFuture<Void> sent) {

        long length() {
            return FrameWriter.headerLength(payload.remaining()) + (long) payload.remaining();
        }
    }

    private final AsyncExchange exchange;
    private final OutputStream out;
    private final long maxQueuedBytes;
    private final ArrayDeque<Frame> queue = new ArrayDeque<>(4);
    /** The writer's: the header being written, and the frames written since the last flush. */
    private final byte[] header = new byte[FrameWriter.MAX_HEADER_LENGTH];
    private final List<Frame> written = new ArrayList<>(4);
    /** Bytes queued or being written: what {@code maxQueuedBytes} bounds. */
    private long queuedBytes;
    private boolean writing;
    /** Why no more frames are taken (the Close frame was queued, or the connection ended), or {@code null}. */
    private String refusal;
    private IOException failure;

    Outbound(AsyncExchange exchange, OutputStream out, long maxQueuedBytes) {
        this.exchange = exchange;
        this.out = out;
        this.maxQueuedBytes = maxQueuedBytes;
    }

    /**
     * Queues a frame, its header's first byte given ({@link FrameWriter#firstByte}) and its payload owned by the
     * queue from now on; {@code last} for the Close frame, after which sends are refused. Returns whether the caller
     * must now {@link #write()}: nobody else is writing.
     */
    boolean enqueue(int firstByte, ByteBuffer payload, boolean last, CompletableFuture<Void> sent) {
        Frame frame = new Frame(firstByte, payload, sent);
        long length = frame.length();
        synchronized (this) {
            if (refusal != null) {
                sent.completeExceptionally(failure != null ? failure : new IOException(refusal));
                return false;
            }
            // One frame is always taken when nothing waits, however large: the bound is on what piles up behind a
            // client that does not read, and a message larger than it could otherwise never be sent at all.
            if (queuedBytes > 0 && queuedBytes + length > maxQueuedBytes && !last) {
                sent.completeExceptionally(new IOException("The client is not reading: " + queuedBytes
                        + " bytes are already waiting (at most " + maxQueuedBytes + ")"));
                return false;
            }
            queue.add(frame);
            queuedBytes += length;
            if (last) {
                refusal = "The WebSocket is closing";
            }
            if (writing) {
                return false;
            }
            writing = true;
            return true;
        }
    }

    /** Fails every waiting frame and refuses new ones: the connection has ended. */
    void fail(IOException cause) {
        ArrayDeque<Frame> dropped;
        synchronized (this) {
            refusal = cause.getMessage();
            failure = cause;
            dropped = new ArrayDeque<>(queue);
            queue.clear();
            queuedBytes = 0;
        }
        dropped.forEach(frame -> frame.sent().completeExceptionally(cause));
    }

    /** The writer, after {@link #enqueue} said so: writes queued frames while the socket takes them. */
    void write() {
        while (true) {
            boolean ready = exchange.responseReady();
            synchronized (this) {
                if (queue.isEmpty() && ready) {
                    writing = false;
                    return;
                }
            }
            if (!ready) {
                // Bytes the socket did not take wait in the engine until writable; so does the next frame.
                exchange.onResponseReady(this::write);
                return;
            }
            try {
                writeQueued();
                out.flush();
            } catch (IOException | IllegalStateException e) {
                IOException cause = e instanceof IOException io ? io : new IOException(e.getMessage(), e);
                synchronized (this) {
                    writing = false;
                }
                written.forEach(frame -> frame.sent().completeExceptionally(cause));
                written.clear();
                fail(cause);
                exchange.abort(cause);
                return;
            }
            completeWritten();
        }
    }

    /** Writes the queued frames into the exchange, while it takes them without waiting. */
    private void writeQueued() throws IOException {
        do {
            Frame next;
            synchronized (this) {
                next = queue.poll();
            }
            if (next == null) {
                return;
            }
            written.add(next);
            ByteBuffer payload = next.payload();
            out.write(header, 0, FrameWriter.writeHeader(header, next.firstByte(), payload.remaining()));
            if (payload.hasArray()) {
                out.write(payload.array(), payload.arrayOffset() + payload.position(), payload.remaining());
            } else {
                byte[] bytes = new byte[payload.remaining()];
                payload.duplicate().get(bytes);
                out.write(bytes);
            }
        } while (exchange.responseReady());
    }

    /** The written frames are the exchange's now: their sends are complete. */
    private void completeWritten() {
        long bytes = 0;
        for (Frame frame : written) {
            bytes += frame.length();
        }
        synchronized (this) {
            if (failure == null) {
                // Not once the connection ended: fail() has already set the count to zero.
                queuedBytes -= bytes;
            }
        }
        for (Frame frame : written) {
            frame.sent().complete(null);
        }
        written.clear();
    }
}
