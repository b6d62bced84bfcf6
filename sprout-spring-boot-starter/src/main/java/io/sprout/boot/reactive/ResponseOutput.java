package io.sprout.boot.reactive;

import io.sprout.engine.AsyncExchange;
import io.sprout.engine.HttpResponse;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBuffer;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The engine's response body in non-blocking mode, as the response's processors drive it: whole buffers written
 * when the engine says a write will not wait, flushes, and the one readiness callback the engine keeps at a time.
 *
 * <p>The processors may ask for writability from any thread (the thread their publisher signals on), but the
 * answer, and with it every write and flush, comes in the exchange's turn: {@link #whenWritable()} runs a task of
 * the exchange (at once on the asking thread when the exchange is idle, since a non-blocking write never waits;
 * otherwise on its worker after what is queued), which calls the listener if the engine is ready and otherwise asks
 * the engine to call back when it is. So the engine's body stream is only ever used by the exchange's own tasks, in
 * order, which is also what orders a requested flush before an error answer that follows it.
 */
final class ResponseOutput {

    /** Told on the exchange's worker. */
    interface Listener {

        /** A write would not wait now, and any flush asked for before has been done. */
        void writable();

        /** A flush failed: the client has gone or the connection broke. */
        void flushFailed(IOException failure);
    }

    private final AsyncExchange exchange;
    private final HttpResponse response;
    private final OutputStream body;
    /** One readiness request at a time: the engine keeps only the latest callback. */
    private final AtomicBoolean armed = new AtomicBoolean();
    private volatile boolean flushPending;
    private volatile Listener listener;

    ResponseOutput(AsyncExchange exchange, HttpResponse response) {
        this.exchange = exchange;
        this.response = response;
        this.body = response.body();
    }

    void listener(Listener listener) {
        this.listener = listener;
    }

    /** Any thread: asks for one {@link Listener#writable()} call; asks made before it comes make one call. */
    void whenWritable() {
        if (armed.compareAndSet(false, true) && !exchange.runOrExecute(this::awaitWritable)) {
            // The exchange has ended: nothing will be written, and its end listener stops the processors.
            armed.set(false);
        }
    }

    /** Any thread: the next {@link Listener#writable()} call is preceded by a flush. */
    void flushLater() {
        flushPending = true;
        whenWritable();
    }

    /**
     * Any thread, once the body has ended: drops the pending flush, since the exchange's completion sends what is
     * buffered anyway, with the framing it then knows (a body that fits the buffer gets a {@code Content-Length}
     * rather than chunks).
     *
     * @return whether bytes the client has not taken yet should be waited for first (with
     *     {@link #whenWritable()}, holding no thread), so that the completion does not wait for them on the worker
     */
    boolean bodyEnded() {
        flushPending = false;
        return !exchange.responseReady();
    }

    /**
     * Worker, from {@link Listener#writable()}: hands the buffer's bytes to the engine in one write, since a
     * non-blocking write may only follow a ready engine and the engine keeps whatever the socket does not take.
     *
     * <p>A write that would overflow the engine's buffer before the response is committed commits it first, at
     * this write's boundary: when the engine commits in the middle of a write, a body encoding its commit listener
     * installs (compression) does not take the rest of that write, which goes out unencoded. The framing is the same
     * either way, since an overflow commits without a length.
     *
     * @return {@code false} when nothing was written yet: the commit left bytes unsent, and the write must wait
     *     for the next {@link Listener#writable()}
     */
    boolean write(DataBuffer data) throws IOException {
        if (!response.committed() && response.bodyBytesWritten() + data.readableByteCount() > response.bufferSize()) {
            body.flush();
            if (!exchange.responseReady()) {
                return false;
            }
        }
        ByteBuffer heap = data instanceof DefaultDataBuffer buffer ? buffer.getNativeBuffer() : null;
        if (heap != null && heap.hasArray()) {
            body.write(heap.array(), heap.arrayOffset() + heap.position(), heap.remaining());
        } else {
            byte[] copy = new byte[data.readableByteCount()];
            data.read(copy);
            body.write(copy);
        }
        return true;
    }

    /** Worker: in the task {@link #whenWritable()} queued. */
    private void awaitWritable() {
        if (exchange.responseReady()) {
            // Called here rather than through the engine's callback: a flush asked for before an error must
            // happen before the task that answers the error.
            writable();
        } else {
            exchange.onResponseReady(this::writable);
        }
    }

    /** Worker: the engine takes a write without waiting. */
    private void writable() {
        armed.set(false);
        if (flushPending) {
            flushPending = false;
            try {
                body.flush();
            } catch (IOException failure) {
                listener.flushFailed(failure);
                return;
            }
            if (!exchange.responseReady()) {
                whenWritable();
                return;
            }
        }
        listener.writable();
    }
}
