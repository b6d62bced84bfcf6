package io.sprout.boot.servlet.http;

import io.sprout.boot.servlet.Unsupported;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * The servlet response buffer. Bytes collect here until the buffer fills or the application flushes; then the
 * response commits (status and headers go to the engine, compression is decided) and bytes flow to the sink the
 * commit returned. Writes after {@code close()} or during a pending {@code sendError} are dropped, as Tomcat
 * drops them.
 *
 * <p>Used by the request's worker, or by one application thread at a time during async processing.
 */
final class ResponseBody extends ServletOutputStream {

    /** Commits the response and returns where body bytes go from now on. */
    interface Committer {
        /**
         * @param complete whether the whole body is buffered (so its length is known)
         * @param bufferedBytes bytes currently buffered
         */
        OutputStream commit(boolean complete, int bufferedBytes) throws IOException;
    }

    static final int DEFAULT_BUFFER_SIZE = 8192;
    private static final int INITIAL_CAPACITY = 1024;

    private final Committer committer;
    /** Grows on demand up to {@link #bufferSize}: most responses are small, and zeroing 8 KB each costs. */
    private byte[] buffer = new byte[INITIAL_CAPACITY];
    private int bufferSize = DEFAULT_BUFFER_SIZE;
    private int count;
    private OutputStream sink;
    private long written;
    private long declaredLength = -1;
    private boolean closed;
    private boolean suspended;

    ResponseBody(Committer committer) {
        this.committer = committer;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        if (closed || suspended || length == 0) {
            return;
        }
        written += length;
        if (count + length > bufferSize) {
            drain(false);
            if (length >= bufferSize) {
                sink.write(bytes, offset, length);
                closeIfLengthReached();
                return;
            }
        }
        if (count + length > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.min(bufferSize, Math.max(buffer.length * 2, count + length)));
        }
        System.arraycopy(bytes, offset, buffer, count, length);
        count += length;
        closeIfLengthReached();
    }

    private void closeIfLengthReached() throws IOException {
        if (declaredLength >= 0 && written >= declaredLength) {
            close();
        }
    }

    /** Commits (if needed) and sends what is buffered. */
    @Override
    public void flush() throws IOException {
        if (closed || suspended) {
            return;
        }
        drain(false);
        sink.flush();
    }

    /** Completes the body: commits with the length known when everything was buffered. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        suspended = false;
        drain(true);
        sink.close();
    }

    private void drain(boolean complete) throws IOException {
        if (sink == null) {
            sink = committer.commit(complete, count);
        }
        if (count > 0) {
            sink.write(buffer, 0, count);
            count = 0;
        }
    }

    boolean committed() {
        return sink != null;
    }

    boolean closed() {
        return closed;
    }

    long bytesWritten() {
        return written;
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

    boolean suspended() {
        return suspended;
    }

    void bufferSize(int size) {
        if (count > 0 || sink != null) {
            throw new IllegalStateException("setBufferSize must be called before content is written");
        }
        bufferSize = Math.max(size, 512);
        buffer = new byte[Math.min(bufferSize, INITIAL_CAPACITY)];
    }

    int bufferSize() {
        return bufferSize;
    }

    void resetBuffer() {
        if (sink != null) {
            throw new IllegalStateException("Cannot reset the buffer: the response is already committed");
        }
        count = 0;
        written = 0;
    }

    @Override
    public boolean isReady() {
        return true;
    }

    @Override
    public void setWriteListener(WriteListener listener) {
        throw Unsupported.nonBlockingIo();
    }
}
