package io.sprout.boot.servlet.http;

import io.sprout.engine.AsyncExchange;
import io.sprout.engine.RequestBodyException;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;

import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.util.function.Supplier;

/**
 * The request body as a {@link ServletInputStream} over the engine's body stream: blocking, or non-blocking once
 * a {@link ReadListener} is set (Servlet 6.1 §3.7). In non-blocking mode {@link #isReady()} asks the engine
 * whether a read would wait; when it would, the engine is asked for one readiness callback, which calls
 * {@code onDataAvailable} on a worker (never on an event loop), and {@code onAllDataRead} once the body has
 * ended. Callbacks run one at a time: the engine serialises every task of an exchange.
 */
final class ServletInput extends ServletInputStream {

    private final PushbackInputStream in;
    private final Supplier<AsyncExchange> asyncExchange;
    private final ContainerCallbacks callbacks;
    private boolean finished;
    private ReadListener listener;
    private AsyncExchange exchange;
    private boolean armed;
    private boolean allDataReadSent;
    private boolean errorSent;
    private RequestBodyException rejection;

    /**
     * @param asyncExchange the engine exchange when async has started or the connection is upgraded, else
     *     {@code null} (a listener may not be set then)
     */
    ServletInput(InputStream in, Supplier<AsyncExchange> asyncExchange, ContainerCallbacks callbacks) {
        this.in = new PushbackInputStream(in, 1);
        this.asyncExchange = asyncExchange;
        this.callbacks = callbacks;
    }

    @Override
    public int read() throws IOException {
        try {
            int b = in.read();
            finished |= b < 0;
            return b;
        } catch (RequestBodyException rejected) {
            throw rejected(rejected);
        }
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        try {
            int n = in.read(buffer, offset, length);
            finished |= n < 0;
            return n;
        } catch (RequestBodyException rejected) {
            throw rejected(rejected);
        }
    }

    /**
     * The engine's refusal of the body (malformed, too large, too slow) that a read threw, or {@code null}: kept
     * because applications turn a failed read into answers of their own (Spring: a 400 for an unreadable message),
     * while the engine's answer (its status and {@code Connection: close}) is the one that must go out.
     */
    RequestBodyException rejection() {
        return rejection;
    }

    private RequestBodyException rejected(RequestBodyException rejected) {
        rejection = rejected;
        return rejected;
    }

    @Override
    public int available() throws IOException {
        return in.available();
    }

    @Override
    public boolean isFinished() {
        return finished;
    }

    /** Blocking mode: always ready (reads block). Non-blocking: whether a read returns without waiting. */
    @Override
    public boolean isReady() {
        if (listener == null) {
            return true;
        }
        if (finished) {
            return false;
        }
        boolean ready = exchange.requestReady();
        if (!ready) {
            arm();
        }
        return ready;
    }

    @Override
    public void setReadListener(ReadListener readListener) {
        if (readListener == null) {
            throw new NullPointerException("readListener");
        }
        if (listener != null) {
            throw new IllegalStateException("A ReadListener has already been set for this request");
        }
        AsyncExchange current = asyncExchange.get();
        if (current == null) {
            throw new IllegalStateException("setReadListener requires async processing to have started "
                    + "(startAsync) or the connection to be upgraded");
        }
        exchange = current;
        listener = readListener;
        arm();
    }

    private void arm() {
        if (!armed) {
            armed = true;
            exchange.onRequestReady(() -> callbacks.run(this::onReady));
        }
    }

    /** Worker: the engine says a read will not wait. */
    private void onReady() {
        armed = false;
        try {
            if (!finished && !peekEnd()) {
                listener.onDataAvailable();
            }
            if (finished && !allDataReadSent) {
                allDataReadSent = true;
                listener.onAllDataRead();
            }
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

    /**
     * Non-blocking reading failed (the client went away, a read timed out, the server stopped, a callback threw)
     * before the body was read: the listener hears {@code onError}, once. Container only, on a worker.
     */
    void failed(Throwable cause) {
        if (listener != null && !allDataReadSent && !errorSent) {
            errorSent = true;
            listener.onError(cause);
        }
    }

    /** Whether the body is at its end; reads one byte (which does not wait: the engine said ready) and puts it back. */
    private boolean peekEnd() throws IOException {
        int b = in.read();
        if (b < 0) {
            finished = true;
            return true;
        }
        in.unread(b);
        return false;
    }
}
