package io.sprout.engine.exchange;

import io.sprout.engine.http.HeaderFields;

import java.io.IOException;

/**
 * A request body over HTTP/2: the DATA frames of one {@link Http2Stream}, which the event loop has copied in; the
 * body ends with END_STREAM. Reading gives the window back to the client ({@link Http2Connection#consumed}).
 * {@code 100 Continue} is a HEADERS frame before the final one; there is no upgrade: HTTP/2 has no {@code 101}.
 */
final class Http2RequestWire implements RequestWire {

    private final Http2Stream stream;
    private boolean expectContinue;

    Http2RequestWire(Http2Stream stream, boolean expectContinue) {
        this.stream = stream;
        this.expectContinue = expectContinue;
    }

    @Override
    public int decode(byte[] dst, int offset, int length) {
        return stream.input.take(dst, offset, length);
    }

    @Override
    public boolean ended() {
        return stream.input.ended();
    }

    @Override
    public boolean hasBuffered() {
        // An END_STREAM that arrived after the last bytes were read is news too: decoding it ends the body. Without
        // it a non-blocking reader would be told, again and again at once, that the stream is readable.
        return stream.input.buffered() > 0 || stream.input.ended();
    }

    @Override
    public int available() {
        return stream.input.buffered();
    }

    @Override
    public int fill(long timeoutMillis) throws IOException {
        return stream.input.await(timeoutMillis);
    }

    @Override
    public void cutReadShort() {
        stream.input.cutReadShort();
    }

    @Override
    public void whenReadable(long deadlineNanos, Runnable task) {
        stream.input.whenReadable(deadlineNanos, task);
    }

    @Override
    public void beforeWait() {
        if (expectContinue) {
            expectContinue = false;
            stream.sendContinue();
        }
    }

    @Override
    public boolean awaitingContinue() {
        return expectContinue && !stream.input.ended();
    }

    @Override
    public long remainingLength() {
        return stream.input.remainingLength();
    }

    @Override
    public HeaderFields trailers() {
        return stream.input.trailers();
    }

    @Override
    public void becomeRaw() {
        throw new IllegalStateException("An HTTP/2 stream cannot switch protocols");
    }
}
