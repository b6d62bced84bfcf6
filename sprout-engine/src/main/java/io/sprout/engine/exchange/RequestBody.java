package io.sprout.engine.exchange;

import io.sprout.engine.http.BodyFraming;
import io.sprout.engine.http.ChunkedDecoder;
import io.sprout.engine.http.HeaderFields;
import io.sprout.engine.http.HttpException;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;

/**
 * A request body as a stream: exactly {@code Content-Length} bytes, or the de-chunked content of a chunked body.
 * The first read that needs bytes from the socket sends {@code 100 Continue} if the client asked for it. After
 * the handler, {@link #drain} discards what it left unread so the connection can carry the next request.
 * Used by one worker at a time.
 */
final class RequestBody extends InputStream {

    private final HttpConnection connection;
    private final long bodyReadTimeoutMillis;
    private final ChunkedDecoder decoder;
    private long remaining;
    private boolean expectContinue;
    private boolean finished;
    private MalformedBodyException failure;
    private boolean timedOut;
    private final byte[] single = new byte[1];

    RequestBody(HttpConnection connection, BodyFraming framing, boolean expectContinue) {
        this.connection = connection;
        this.bodyReadTimeoutMillis = connection.context().config().timeouts().bodyRead().toMillis();
        this.expectContinue = expectContinue;
        switch (framing) {
            case BodyFraming.Fixed fixed -> {
                this.decoder = null;
                this.remaining = fixed.length();
                this.finished = fixed.length() == 0;
            }
            case BodyFraming.Chunked chunked -> this.decoder = new ChunkedDecoder(connection.context().parserLimits());
        }
    }

    @Override
    public int read() throws IOException {
        int count = read(single, 0, 1);
        return count < 0 ? -1 : single[0] & 0xff;
    }

    @Override
    public int read(byte[] dst, int offset, int length) throws IOException {
        java.util.Objects.checkFromIndexSize(offset, length, dst.length);
        if (failure != null) {
            throw failure;
        }
        if (length == 0) {
            return 0;
        }
        while (!finished) {
            int count = decode(dst, offset, length);
            if (count != 0) {
                return count;
            }
            sendContinueIfExpected();
            if (!fill()) {
                throw new EOFException("The client closed the connection before the request body ended");
            }
        }
        return -1;
    }

    @Override
    public int available() {
        if (finished || decoder != null) {
            return 0;
        }
        return (int) Math.min(remaining, connection.inbound().buffer().remaining());
    }

    private boolean fill() throws IOException {
        try {
            return connection.inbound().fill(connection.channel(), bodyReadTimeoutMillis);
        } catch (SocketTimeoutException e) {
            timedOut = true;
            throw e;
        }
    }

    /** Whether a read waited longer than the body read timeout (the answer is then 408). */
    boolean timedOut() {
        return timedOut;
    }

    /** Whether the whole body has been consumed. */
    boolean finished() {
        return finished;
    }

    /** The chunked coding error met while reading, if any. */
    MalformedBodyException failure() {
        return failure;
    }

    /** Whether reading more would still need the client to be told {@code 100 Continue}. */
    boolean awaitingContinue() {
        return expectContinue && !finished;
    }

    HeaderFields trailers() {
        return decoder != null && decoder.done() ? decoder.trailers() : new HeaderFields(0);
    }

    /**
     * Reads and discards what the handler left, up to {@code limit} bytes.
     *
     * @return whether the body ended, so the connection may be reused
     */
    boolean drain(long limit) throws IOException {
        if (finished) {
            return true;
        }
        if (failure != null || expectContinue) {
            // The client was never told to send the body (or it is broken): reading on would block or lie.
            return false;
        }
        if (decoder == null && remaining > limit) {
            // Known to exceed the limit: closing now beats holding a worker to read what is thrown away anyway.
            return false;
        }
        byte[] scratch = new byte[(int) Math.min(8192, Math.max(1, limit))];
        long drained = 0;
        while (!finished && drained <= limit) {
            int count = read(scratch, 0, scratch.length);
            if (count > 0) {
                drained += count;
            }
        }
        return finished;
    }

    private int decode(byte[] dst, int offset, int length) throws MalformedBodyException {
        java.nio.ByteBuffer buffer = connection.inbound().buffer();
        try {
            if (decoder == null) {
                int count = (int) Math.min(remaining, Math.min(length, buffer.remaining()));
                buffer.get(dst, offset, count);
                remaining -= count;
                finished = remaining == 0;
                return count;
            }
            int count = decoder.decode(buffer, dst, offset, length);
            finished = count < 0;
            return count;
        } catch (HttpException e) {
            failure = new MalformedBodyException(e);
            throw failure;
        } finally {
            connection.inbound().releaseIfEmpty();
        }
    }

    private void sendContinueIfExpected() throws IOException {
        if (expectContinue) {
            expectContinue = false;
            connection.sendContinue();
        }
    }
}
