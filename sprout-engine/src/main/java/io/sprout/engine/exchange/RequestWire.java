package io.sprout.engine.exchange;

import io.sprout.engine.http.HeaderFields;
import io.sprout.engine.http.HttpException;

import java.io.IOException;

/**
 * The wire below one exchange's request body: how body bytes are delimited and where more of them come from.
 * {@link RequestBody} above it (the handler's stream, read-ahead for readiness, the body's time limits, failures as
 * typed exceptions) knows nothing of the protocol. HTTP/1.1 over either transport is {@link Http1RequestWire}; an
 * HTTP/2 stream, whose body arrives as DATA frames, is meant to be another implementation. Used by one thread at a
 * time, the one reading the body.
 */
interface RequestWire {

    /**
     * Decodes body bytes that have arrived into {@code dst}.
     *
     * @return the count decoded, 0 when more bytes must arrive first, or -1 when the body has ended
     * @throws HttpException when the body's framing is malformed
     */
    int decode(byte[] dst, int offset, int length);

    /** Whether the body has ended: every byte of it decoded. */
    boolean ended();

    /** Whether bytes (or the body's end) have arrived that {@link #decode} has not taken yet. */
    boolean hasBuffered();

    /** Body bytes a read can take at once without decoding, for {@link java.io.InputStream#available()}. */
    int available();

    /**
     * Waits up to {@code timeoutMillis} for more bytes from the client.
     *
     * @return the count of bytes that arrived, or -1 when the client has closed its side
     * @throws java.net.SocketTimeoutException when nothing arrived in time
     */
    int fill(long timeoutMillis) throws IOException;

    /**
     * From any thread: ends the {@link #fill} blocked now, or the next one, with a
     * {@link java.net.SocketTimeoutException}, as if its time had run out, while the answer can still be sent.
     */
    void cutReadShort();

    /**
     * Runs {@code task} once, when more body bytes can be read without waiting, when {@code deadlineNanos} passes,
     * or when the stream closes; the task must not block (see {@link ConnectionChannel#whenReadable}).
     */
    void whenReadable(long deadlineNanos, Runnable task);

    /** Before the first wait for body bytes: tells a client that holds its body back to send it. */
    void beforeWait() throws IOException;

    /** Whether the client still holds its body back until told to send it. */
    boolean awaitingContinue();

    /** Body bytes still to come when the body's length is known, else -1. */
    long remainingLength();

    /** The trailer fields once the body has ended (none when the protocol or the client sent none). */
    HeaderFields trailers();

    /** After a protocol upgrade: every later byte is body, without framing, until the client closes. */
    void becomeRaw();
}
