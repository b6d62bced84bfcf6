package io.sprout.engine.websocket;

import io.sprout.engine.AsyncExchange;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;

/**
 * A connection's outgoing frames: queued in call order, written by one thread at a time. The thread that queues a
 * frame while nobody writes becomes the writer ({@link #enqueue} returns {@code true}) and writes until the queue is
 * empty; when the socket takes no more (the response is non-blocking, and so is the socket in either mode once the
 * upgraded exchange has suspended), writing continues in the engine's writability callback. At most
 * {@code maxQueuedBytes} wait behind a frame being written: a send beyond that fails at once, so a client that does
 * not read costs bounded memory. A frame larger than the bound is taken when nothing else waits.
 * Thread-safe.
 */
final class Outbound {

    private record Frame(ByteBuffer bytes, CompletableFuture<Void> sent) {
    }

    private final AsyncExchange exchange;
    private final OutputStream out;
    private final long maxQueuedBytes;
    private final ArrayDeque<Frame> queue = new ArrayDeque<>(4);
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
     * Queues a whole encoded frame; {@code last} for the Close frame, after which sends are refused. Returns whether
     * the caller must now {@link #write()}: nobody else is writing.
     */
    boolean enqueue(ByteBuffer frame, boolean last, CompletableFuture<Void> sent) {
        synchronized (this) {
            if (refusal != null) {
                sent.completeExceptionally(failure != null ? failure : new IOException(refusal));
                return false;
            }
            // One frame is always taken when nothing waits, however large: the bound is on what piles up behind a
            // client that does not read, and a message larger than it could otherwise never be sent at all.
            if (queuedBytes > 0 && queuedBytes + frame.remaining() > maxQueuedBytes && !last) {
                sent.completeExceptionally(new IOException("The client is not reading: " + queuedBytes
                        + " bytes are already waiting (at most " + maxQueuedBytes + ")"));
                return false;
            }
            queue.add(new Frame(frame, sent));
            queuedBytes += frame.remaining();
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
            Frame next;
            synchronized (this) {
                next = queue.peek();
                if (next == null && ready) {
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
                ByteBuffer bytes = next.bytes();
                out.write(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
                out.flush();
            } catch (IOException | IllegalStateException e) {
                IOException cause = e instanceof IOException io ? io : new IOException(e.getMessage(), e);
                synchronized (this) {
                    writing = false;
                }
                fail(cause);
                exchange.abort(cause);
                return;
            }
            synchronized (this) {
                if (queue.peek() == next) {
                    // Not when the connection ended meanwhile: fail() has emptied the queue and failed the frame.
                    queue.poll();
                    queuedBytes -= next.bytes().remaining();
                }
            }
            next.sent().complete(null);
        }
    }
}
