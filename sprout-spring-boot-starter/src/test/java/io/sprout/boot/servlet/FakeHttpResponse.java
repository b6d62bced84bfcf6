package io.sprout.boot.servlet;

import io.sprout.engine.Headers;
import io.sprout.engine.HttpResponse;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** An engine response recorded in memory: what the container committed and wrote. */
public final class FakeHttpResponse implements HttpResponse {

    private final Headers headers = Headers.create();
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private int status = 200;
    private long contentLength = -1;
    private boolean committed;
    private boolean closed;
    private final OutputStream body = new OutputStream() {
        @Override
        public void write(int b) {
            committed = true;
            bytes.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            committed = true;
            bytes.write(b, off, len);
        }

        @Override
        public void flush() {
            committed = true;
        }

        @Override
        public void close() {
            committed = true;
            closed = true;
        }
    };

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
        return committed;
    }

    public boolean closed() {
        return closed;
    }

    public byte[] bytes() {
        return bytes.toByteArray();
    }

    public String text() {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void reset() {
        if (committed) {
            throw new IllegalStateException("committed");
        }
        for (String name : headers.names()) {
            headers.remove(name);
        }
        status = 200;
        bytes.reset();
    }

    @Override
    public void resetBuffer() {
        if (committed) {
            throw new IllegalStateException("committed");
        }
        bytes.reset();
    }

    @Override
    public int bufferSize() {
        return 8192;
    }

    @Override
    public void bufferSize(int size) {
        // The fake writes through: it has no buffer to size.
    }

    @Override
    public long bodyBytesWritten() {
        return bytes.size();
    }

    @Override
    public void beforeCommit(CommitListener listener) {
        // The fake commits on the first write, before any listener could matter to the tests that use it.
    }

    @Override
    public void encodeBody(java.util.function.UnaryOperator<OutputStream> encoding) {
        throw new IllegalStateException("the fake response does not encode bodies");
    }
}
