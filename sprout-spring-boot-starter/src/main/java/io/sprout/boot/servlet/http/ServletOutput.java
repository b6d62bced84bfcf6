package io.sprout.boot.servlet.http;

import io.sprout.engine.AsyncExchange;
import io.sprout.engine.HttpResponse;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;

import java.io.IOException;

/**
 * The response body as a {@link ServletOutputStream} writing straight into the engine's response buffer: the
 * engine holds the bytes, commits when its buffer overflows or on flush (running the response's commit listener),
 * and frames them. This class adds the Servlet rules on top: the body closes once a declared
 * {@code Content-Length} is reached, writes after {@code close()} or during a pending {@code sendError} are
 * dropped (as Tomcat drops them), and a {@link WriteListener} switches to non-blocking writes (Servlet 6.1 §5.3).
 *
 * <p>In non-blocking mode {@link #isReady()} asks the engine whether a write would wait; when it would, the engine
 * is asked for one readiness callback, which calls {@code onWritePossible} on a worker (never on an event loop).
 * Callbacks run one at a time: the engine serialises every task of an exchange. Used by one thread at a time.
 */
final class ServletOutput extends ServletOutputStream {

    /** Servlet containers accept smaller values but never buffer less than this. */
    private static final int MIN_BUFFER_SIZE = 512;

    private final HttpResponse engine;
    private final SproutRequest request;
    private long declaredLength = -1;
    private boolean closed;
    private boolean suspended;
    private WriteListener listener;
    private AsyncExchange exchange;
    private boolean armed;
    private boolean errorSent;

    /**
     * @param request asked for the engine exchange (a listener may be set only once async has started or the
     *     connection is upgraded) and to run listener callbacks; the request itself rather than two lambdas over it,
     *     which every response would allocate
     */
    ServletOutput(HttpResponse engine, SproutRequest request) {
        this.engine = engine;
        this.request = request;
    }

    @Override
    public void write(int b) throws IOException {
        if (closed || suspended) {
            return;
        }
        engine.body().write(b);
        closeIfLengthReached();
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        if (closed || suspended || length == 0) {
            return;
        }
        engine.body().write(bytes, offset, length);
        closeIfLengthReached();
    }

    private void closeIfLengthReached() throws IOException {
        if (declaredLength >= 0 && engine.bodyBytesWritten() >= declaredLength) {
            close();
        }
    }

    /** Commits (if needed) and sends what is buffered. */
    @Override
    public void flush() throws IOException {
        if (!closed && !suspended) {
            engine.body().flush();
        }
    }

    /** Completes the body: the engine commits with the length known when everything was buffered. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        suspended = false;
        engine.body().close();
    }

    boolean committed() {
        return engine.committed();
    }

    long bytesWritten() {
        return engine.bodyBytesWritten();
    }

    void declaredLength(long length) {
        declaredLength = length;
    }

    /** Drops writes until {@link #resume()}: the state between {@code sendError} and the error dispatch. */
    void suspend() {
        suspended = true;
    }

    void resume() {
        suspended = false;
    }

    void bufferSize(int size) {
        if (engine.bodyBytesWritten() > 0 || engine.committed()) {
            throw new IllegalStateException("setBufferSize must be called before content is written");
        }
        engine.bufferSize(Math.max(size, MIN_BUFFER_SIZE));
    }

    int bufferSize() {
        return engine.bufferSize();
    }

    void resetBuffer() {
        if (engine.committed()) {
            throw new IllegalStateException("Cannot reset the buffer: the response is already committed");
        }
        engine.resetBuffer();
    }

    /** Blocking mode: always ready (writes block). Non-blocking: whether a write is taken without waiting. */
    @Override
    public boolean isReady() {
        if (listener == null) {
            return true;
        }
        boolean ready = exchange.responseReady();
        if (!ready) {
            arm();
        }
        return ready;
    }

    @Override
    public void setWriteListener(WriteListener writeListener) {
        if (writeListener == null) {
            throw new NullPointerException("writeListener");
        }
        if (listener != null) {
            throw new IllegalStateException("A WriteListener has already been set for this response");
        }
        AsyncExchange current = request.isAsyncStarted() || request.upgrading() ? request.engineExchange() : null;
        if (current == null) {
            throw new IllegalStateException("setWriteListener requires async processing to have started "
                    + "(startAsync) or the connection to be upgraded");
        }
        current.nonBlockingResponse();
        exchange = current;
        listener = writeListener;
        arm();
    }

    /**
     * Non-blocking writing failed (the client went away, a write timed out, the server stopped, a callback threw):
     * the listener hears {@code onError}, once. Container only, on a worker.
     */
    void failed(Throwable cause) {
        if (listener != null && !errorSent) {
            errorSent = true;
            listener.onError(cause);
        }
    }

    private void arm() {
        if (!armed) {
            armed = true;
            exchange.onResponseReady(() -> request.inContainer(this::onWritable));
        }
    }

    /** Worker: the engine says a write will not wait. */
    private void onWritable() {
        armed = false;
        try {
            listener.onWritePossible();
        } catch (Exception failure) {
            // As on Tomcat, a failing callback ends the request: the async listeners hear onError next (and the
            // container logs it with the request line when the exchange ends).
            failed(failure);
            exchange.abort(failure);
        } catch (Error fatal) {
            // Ends the request as well, then goes on to the worker's own loop: not the container's to swallow.
            failed(fatal);
            exchange.abort(fatal);
            throw fatal;
        }
    }
}
