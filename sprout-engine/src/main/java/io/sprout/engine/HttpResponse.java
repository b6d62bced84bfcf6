package io.sprout.engine;

import io.sprout.engine.http.HeaderFields;

import java.io.OutputStream;

/**
 * The response to one {@link HttpRequest}. Status and headers may change until the response is committed, which
 * happens when the body buffer first overflows or is flushed, or when the handler returns.
 *
 * <p>Framing is decided at commit: a body that fits the buffer when the handler returns gets a
 * {@code Content-Length}; a longer one without a declared length is sent chunked (HTTP/1.1) or close-delimited
 * (HTTP/1.0). {@code HEAD} responses and 1xx/204/304 carry no body whatever the handler writes.
 */
public interface HttpResponse {

    /** Sets the status code (100–599, except 101 which this engine does not support). */
    void status(int status);

    int status();

    /** The response header fields; changes after commit are ignored. Framing headers are managed by the engine. */
    HeaderFields headers();

    /** Declares the body length, so the response is not chunked; writing more or less aborts the connection. */
    void contentLength(long length);

    /**
     * The body. Writes block the calling worker while the client is slow to read (bounded by the write timeout).
     * {@code flush()} commits and sends what is buffered; {@code close()} completes the response.
     */
    OutputStream body();

    boolean committed();

    /** Drops the status, headers and buffered body. @throws IllegalStateException once committed */
    void reset();
}
