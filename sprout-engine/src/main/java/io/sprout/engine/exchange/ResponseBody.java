package io.sprout.engine.exchange;

import io.sprout.engine.http.ChunkHeader;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * The response body stream. Bytes collect in one pooled buffer laid out so a whole flush is a single write:
 *
 * <pre>
 *   [ head reserve: status line + fields and/or chunk-size line, right-aligned ][ body bytes ][ CRLF + last chunk ]
 * </pre>
 *
 * The first flush commits the response (see {@link ExchangeResponse#commit}). Used by one thread at a time.
 */
final class ResponseBody extends OutputStream {

    /** Room before the body for the head and a chunk-size line; a larger head is written on its own. */
    private static final int HEAD_RESERVE = 1024;
    /** Room after the body for the chunk's CRLF and the last chunk. */
    private static final int TAIL_RESERVE = 2 + ChunkHeader.LAST_CHUNK.length;

    private final ExchangeResponse response;
    private final HttpConnection connection;
    private ByteBuffer buffer;
    private long written;
    private boolean completed;
    private final byte[] single = new byte[1];

    ResponseBody(ExchangeResponse response, HttpConnection connection) {
        this.response = response;
        this.connection = connection;
    }

    @Override
    public void write(int b) throws IOException {
        single[0] = (byte) b;
        write(single, 0, 1);
    }

    @Override
    public void write(byte[] src, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, src.length);
        if (completed) {
            throw new IOException("The response is already complete");
        }
        written += length;
        long declared = response.declaredLength();
        if (declared >= 0 && written > declared) {
            throw new IOException("Wrote more than the declared Content-Length of " + declared);
        }
        if (response.committed() && !response.framing().hasBody()) {
            return;
        }
        int at = offset;
        int left = length;
        while (left > 0) {
            ByteBuffer target = buffer();
            int room = target.capacity() - TAIL_RESERVE - target.position();
            if (room == 0) {
                send(false);
                continue;
            }
            int count = Math.min(room, left);
            target.put(src, at, count);
            at += count;
            left -= count;
        }
    }

    /** Commits the response and sends what is buffered. */
    @Override
    public void flush() throws IOException {
        if (!completed) {
            send(false);
        }
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
        return buffer == null ? 0 : buffer.position() - HEAD_RESERVE;
    }

    boolean completed() {
        return completed;
    }

    /** Sends the rest and ends the framing; fails if a declared length was not met. */
    void complete() throws IOException {
        if (completed) {
            return;
        }
        send(true);
        completed = true;
        long declared = response.declaredLength();
        if (declared >= 0 && written < declared && response.framing().hasBody()) {
            throw new IOException("Wrote " + written + " of the declared Content-Length of " + declared);
        }
    }

    /** Drops buffered bytes (for {@link ExchangeResponse#reset()}). */
    void discard() {
        written = 0;
        if (buffer != null) {
            buffer.position(HEAD_RESERVE);
        }
    }

    void release() {
        if (buffer != null) {
            connection.context().pool().release(buffer);
            buffer = null;
        }
    }

    private ByteBuffer buffer() {
        if (buffer == null) {
            buffer = connection.context().pool().lease();
            buffer.position(HEAD_RESERVE);
        }
        return buffer;
    }

    private void send(boolean last) throws IOException {
        ByteBuffer target = buffer();
        int bodyEnd = target.position();
        int bodyLength = bodyEnd - HEAD_RESERVE;
        boolean firstSend = !response.committed();
        if (firstSend) {
            response.commit(last, bodyLength);
        }
        ResponseFraming framing = response.framing();
        if (!framing.hasBody()) {
            bodyLength = 0;
            bodyEnd = HEAD_RESERVE;
        }
        byte[] array = target.array();
        int start = HEAD_RESERVE;
        int end = bodyEnd;
        if (framing == ResponseFraming.CHUNKED) {
            if (bodyLength > 0) {
                start = ChunkHeader.writeBefore(array, start, bodyLength);
                array[end++] = '\r';
                array[end++] = '\n';
            }
            if (last) {
                System.arraycopy(ChunkHeader.LAST_CHUNK, 0, array, end, ChunkHeader.LAST_CHUNK.length);
                end += ChunkHeader.LAST_CHUNK.length;
            }
        }
        if (firstSend) {
            start = prependHead(array, start);
        }
        if (end > start) {
            connection.write(target.limit(end).position(start));
        }
        target.clear().position(HEAD_RESERVE);
    }

    /** Puts the encoded head before {@code start}, or writes it on its own when it does not fit. */
    private int prependHead(byte[] array, int start) throws IOException {
        byte[] head = connection.encoder().bytes();
        int headLength = connection.encoder().length();
        if (headLength <= start) {
            System.arraycopy(head, 0, array, start - headLength, headLength);
            return start - headLength;
        }
        connection.write(ByteBuffer.wrap(head, 0, headLength));
        return start;
    }
}
