package io.sprout.boot.servlet;

import io.sprout.engine.Headers;
import io.sprout.engine.HttpResponse;
import io.sprout.engine.server.Sprout;

import java.io.ByteArrayOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * An engine response recorded in memory, with the engine's buffering contract: bytes are held until the buffer
 * overflows, a flush or a close; then the commit listeners run (with whether the body is complete), the response
 * commits, and bytes go through any body encoding they installed to {@link #bytes()}.
 */
public final class FakeHttpResponse implements HttpResponse {

    private final Headers headers = Sprout.headers();
    private Supplier<? extends Headers> trailers;
    private final ByteArrayOutputStream wire = new ByteArrayOutputStream();
    private final ByteArrayOutputStream buffered = new ByteArrayOutputStream();
    private final List<CommitListener> listeners = new ArrayList<>();
    private int status = 200;
    private long contentLength = -1;
    private int bufferSize = 8192;
    private long written;
    private boolean committedComplete;
    private boolean inListeners;
    private UnaryOperator<OutputStream> encoding;
    private OutputStream sink;
    private boolean closed;
    private final OutputStream body = new OutputStream() {
        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (closed) {
                throw new IOException("The response is already complete");
            }
            written += len;
            if (sink != null) {
                sink.write(b, off, len);
                return;
            }
            buffered.write(b, off, len);
            if (buffered.size() > bufferSize) {
                commit(false);
            }
        }

        @Override
        public void flush() throws IOException {
            if (!closed) {
                commit(false);
                sink.flush();
            }
        }

        @Override
        public void close() throws IOException {
            if (!closed) {
                commit(true);
                sink.close();
                closed = true;
            }
        }
    };

    private void commit(boolean complete) throws IOException {
        if (sink != null) {
            return;
        }
        inListeners = true;
        try {
            for (CommitListener listener : List.copyOf(listeners)) {
                listener.beforeCommit(complete, buffered.size());
            }
        } finally {
            inListeners = false;
        }
        committedComplete = complete;
        OutputStream unclosable = new FilterOutputStream(wire) {
            @Override
            public void close() {
                // As the engine's: closing the encoding must not complete the response.
            }
        };
        sink = encoding == null ? unclosable : encoding.apply(unclosable);
        buffered.writeTo(sink);
        buffered.reset();
    }

    @Override
    public void status(int value) {
        status = value;
    }

    @Override
    public int status() {
        return status;
    }

    @Override
    public Headers headers() {
        return headers;
    }

    @Override
    public void contentLength(long length) {
        contentLength = length;
    }

    public long declaredLength() {
        return contentLength;
    }

    @Override
    public OutputStream body() {
        return body;
    }

    @Override
    public boolean committed() {
        return sink != null;
    }

    /** Whether the response committed with its whole body buffered (so the engine would know its length). */
    public boolean committedComplete() {
        return committedComplete;
    }

    public boolean closed() {
        return closed;
    }

    public byte[] bytes() {
        return wire.toByteArray();
    }

    public String text() {
        return wire.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void reset() {
        resetBuffer();
        for (String name : headers.names()) {
            headers.remove(name);
        }
        status = 200;
        contentLength = -1;
    }

    @Override
    public void resetBuffer() {
        if (committed()) {
            throw new IllegalStateException("committed");
        }
        buffered.reset();
        written = 0;
    }

    @Override
    public int bufferSize() {
        return bufferSize;
    }

    @Override
    public void bufferSize(int size) {
        if (written > 0 || committed()) {
            throw new IllegalStateException("body bytes already written");
        }
        bufferSize = size;
    }

    @Override
    public long bodyBytesWritten() {
        return written;
    }

    @Override
    public void beforeCommit(CommitListener listener) {
        listeners.add(listener);
    }

    @Override
    public void trailers(Supplier<? extends Headers> supplier) {
        if (committed()) {
            throw new IllegalStateException("Trailers must be set before the response commits");
        }
        trailers = supplier;
    }

    /** The trailer fields the handler asked to send, or {@code null}. */
    public Headers trailerFields() {
        return trailers == null ? null : trailers.get();
    }

    @Override
    public void encodeBody(UnaryOperator<OutputStream> encoding) {
        if (!inListeners) {
            throw new IllegalStateException("encodeBody may only be called from a CommitListener");
        }
        this.encoding = encoding;
    }
}
