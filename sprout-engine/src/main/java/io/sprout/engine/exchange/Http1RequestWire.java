package io.sprout.engine.exchange;

import io.sprout.engine.http.BodyFraming;
import io.sprout.engine.http.ChunkedDecoder;
import io.sprout.engine.http.HeaderFields;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A request body over HTTP/1.1 (RFC 9112 §6): exactly {@code Content-Length} bytes or a chunked body (de-chunked by
 * {@link ChunkedDecoder}), read from the connection's {@link Inbound} through its channel; after an upgrade, every
 * byte the client sends. {@code Expect: 100-continue} is answered before the first wait for the body.
 */
final class Http1RequestWire implements RequestWire {

    private final HttpConnection connection;
    private ChunkedDecoder decoder;
    private long remaining;
    private boolean raw;
    private boolean expectContinue;
    private boolean ended;

    Http1RequestWire(HttpConnection connection, BodyFraming framing, boolean expectContinue) {
        this.connection = connection;
        this.expectContinue = expectContinue;
        switch (framing) {
            case BodyFraming.Fixed fixed -> {
                this.remaining = fixed.length();
                this.ended = fixed.length() == 0;
            }
            case BodyFraming.Chunked chunked -> this.decoder = new ChunkedDecoder(connection.context().parserLimits());
        }
    }

    @Override
    public int decode(byte[] dst, int offset, int length) {
        ByteBuffer buffer = connection.inbound().buffer();
        try {
            if (decoder != null) {
                int count = decoder.decode(buffer, dst, offset, length);
                ended = count < 0;
                return count;
            }
            int count = (int) Math.min(remaining, Math.min(length, buffer.remaining()));
            buffer.get(dst, offset, count);
            if (!raw) {
                remaining -= count;
                ended = remaining == 0;
            }
            return count;
        } finally {
            connection.inbound().releaseIfEmpty();
        }
    }

    @Override
    public boolean ended() {
        return ended;
    }

    @Override
    public boolean hasBuffered() {
        return connection.inbound().hasBuffered();
    }

    @Override
    public int available() {
        if (ended || decoder != null) {
            return 0;
        }
        return (int) Math.min(remaining, connection.inbound().buffer().remaining());
    }

    @Override
    public int fill(long timeoutMillis) throws IOException {
        Inbound inbound = connection.inbound();
        int before = inbound.buffer().remaining();
        if (!inbound.fill(connection.channel(), timeoutMillis)) {
            return -1;
        }
        return inbound.buffer().remaining() - before;
    }

    @Override
    public void whenReadable(long deadlineNanos, Runnable task) {
        connection.channel().whenReadable(deadlineNanos, task);
    }

    @Override
    public void cutReadShort() {
        connection.channel().cutReadShort();
    }

    @Override
    public void beforeWait() throws IOException {
        if (expectContinue) {
            expectContinue = false;
            connection.sendContinue();
        }
    }

    @Override
    public boolean awaitingContinue() {
        return expectContinue && !ended;
    }

    @Override
    public long remainingLength() {
        return decoder == null ? remaining : -1;
    }

    @Override
    public HeaderFields trailers() {
        return decoder != null && decoder.done() ? decoder.trailers() : new HeaderFields(0);
    }

    @Override
    public void becomeRaw() {
        raw = true;
        ended = false;
        decoder = null;
        remaining = Long.MAX_VALUE;
    }
}
