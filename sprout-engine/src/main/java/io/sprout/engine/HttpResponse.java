package io.sprout.engine;

import java.io.OutputStream;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The response to one {@link HttpRequest}. Status and headers may change until the response is committed, which
 * happens when the body buffer first overflows or is flushed, or when the exchange completes.
 *
 * <p>Framing is decided at commit: a body that fits the buffer when the exchange completes gets a
 * {@code Content-Length}; a longer one without a declared length is sent chunked (HTTP/1.1) or close-delimited
 * (HTTP/1.0). {@code HEAD} responses and 1xx/204/304 carry no body whatever the handler writes. Used by one thread
 * at a time.
 */
public interface HttpResponse {

    /** Runs once, on the committing thread, just before the response commits. */
    @FunctionalInterface
    interface CommitListener {
        /**
         * May still change the status and headers, and install a body encoding with {@link #encodeBody}.
         *
         * @param complete whether the body is complete (its length is then {@code bufferedBytes})
         * @param bufferedBytes body bytes written and not yet sent
         */
        void beforeCommit(boolean complete, int bufferedBytes);
    }

    /** Sets the status code (100–599, except 101, which {@link AsyncExchange#upgrade()} sends). */
    void status(int status);

    int status();

    /** The response header fields; changes after commit are ignored. Framing headers are managed by the engine. */
    Headers headers();

    /** Declares the body length, so the response is not chunked; writing more or less aborts the connection. */
    void contentLength(long length);

    /**
     * The body. Writes block the calling thread while the client is slow to read (bounded by the write timeout),
     * unless {@link AsyncExchange#nonBlockingResponse()} was called. {@code flush()} commits and sends what is
     * buffered; {@code close()} completes the response.
     */
    OutputStream body();

    boolean committed();

    /** Drops the status, headers and buffered body. @throws IllegalStateException once committed */
    void reset();

    /** Drops the buffered body, keeping status and headers. @throws IllegalStateException once committed */
    void resetBuffer();

    /** Body bytes held before the response commits; the default fills one pooled buffer. */
    int bufferSize();

    /** @throws IllegalStateException once body bytes have been written */
    void bufferSize(int size);

    /** Body bytes the handler has written (before any encoding). */
    long bodyBytesWritten();

    /** Adds a listener run just before commit; listeners run in the order added. */
    void beforeCommit(CommitListener listener);

    /**
     * From a {@link CommitListener} only: sends the body through {@code encoding} (for example a
     * {@code GZIPOutputStream} around the given stream). The length on the wire is then unknown, so the body is
     * chunked; closing the encoding's stream must finish its output and must not complete the response.
     */
    void encodeBody(UnaryOperator<OutputStream> encoding);

    /**
     * Sends trailer fields after the body; {@code supplier} is asked once, when the body is complete. Over HTTP/2
     * they follow the last DATA frame. Over HTTP/1.1 they end a chunked body, so a body without a declared length is
     * then sent chunked; a declared {@code Content-Length}, an HTTP/1.0 client or a response without a body leaves
     * no place for them, and they are not sent.
     *
     * @throws IllegalStateException once committed
     */
    void trailers(Supplier<? extends Headers> supplier);
}
