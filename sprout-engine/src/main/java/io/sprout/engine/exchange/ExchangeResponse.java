package io.sprout.engine.exchange;

import io.sprout.engine.Headers;
import io.sprout.engine.HttpResponse;
import io.sprout.engine.buffer.BufferPool;
import io.sprout.engine.http.HeaderFields;
import io.sprout.engine.http.HeaderNames;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The engine's {@link HttpResponse}: status and fields until commit, then the {@link ResponsePlan} that the
 * {@link ResponseWire} decided. A {@code Content-Length} field set by the handler becomes the declared length at
 * commit; the other fields the protocol owns are the wire's business.
 */
final class ExchangeResponse implements HttpResponse {

    private final ResponseWire wire;
    private final ResponseBody body;
    private final HeaderFields headers = new HeaderFields();
    /** The first listener apart: nearly every response has exactly one (the servlet layer's). */
    private CommitListener firstListener;
    private List<CommitListener> moreListeners;
    private int status = 200;
    private long declaredLength = -1;
    private boolean committed;
    private boolean inListeners;
    private UnaryOperator<OutputStream> encoding;
    private Supplier<? extends Headers> trailers;
    private ResponsePlan plan;

    ExchangeResponse(Exchange exchange, ResponseWire wire, BufferPool pool) {
        this.wire = wire;
        this.body = new ResponseBody(exchange, this, wire, pool);
    }

    @Override
    public void status(int status) {
        if (status < 100 || status > 599 || status == 101) {
            throw new IllegalArgumentException("status must be 100-599 except 101 but was " + status);
        }
        if (!committed) {
            this.status = status;
        }
    }

    @Override
    public int status() {
        return status;
    }

    @Override
    public HeaderFields headers() {
        return headers;
    }

    @Override
    public void contentLength(long length) {
        if (length < -1) {
            throw new IllegalArgumentException("contentLength must be -1 or more but was " + length);
        }
        if (!committed) {
            declaredLength = length;
        }
    }

    @Override
    public OutputStream body() {
        return body;
    }

    @Override
    public boolean committed() {
        return committed;
    }

    @Override
    public void reset() {
        resetBuffer();
        status = 200;
        declaredLength = -1;
        headers.clear();
    }

    @Override
    public void resetBuffer() {
        if (committed) {
            throw new IllegalStateException("The response is already committed");
        }
        body.discard();
    }

    @Override
    public int bufferSize() {
        return body.bufferSize();
    }

    @Override
    public void bufferSize(int size) {
        body.bufferSize(size);
    }

    @Override
    public long bodyBytesWritten() {
        return body.written();
    }

    @Override
    public void beforeCommit(CommitListener listener) {
        if (firstListener == null) {
            firstListener = listener;
            return;
        }
        if (moreListeners == null) {
            moreListeners = new ArrayList<>(2);
        }
        moreListeners.add(listener);
    }

    @Override
    public void encodeBody(UnaryOperator<OutputStream> encoding) {
        if (!inListeners) {
            throw new IllegalStateException("encodeBody may only be called from a CommitListener");
        }
        this.encoding = encoding;
    }

    /**
     * Fails once {@code written} body bytes pass the declared {@code Content-Length}; not while a body encoding
     * (compression) makes the length on the wire another.
     */
    void checkWithinDeclared(long written, boolean encoded) throws IOException {
        if (declaredLength >= 0 && written > declaredLength && !encoded) {
            throw new IOException("Wrote more than the declared Content-Length of " + declaredLength);
        }
    }

    /** At the end of a body that was due: fails when {@code written} fell short of the declared length. */
    void checkDeclaredMet(long written, boolean encoded) throws IOException {
        if (declaredLength >= 0 && written < declaredLength && framing().hasBody() && !encoded) {
            throw new IOException("Wrote " + written + " of the declared Content-Length of " + declaredLength);
        }
    }

    @Override
    public void trailers(Supplier<? extends Headers> supplier) {
        if (committed) {
            throw new IllegalStateException("Trailers must be set before the response commits");
        }
        trailers = supplier;
        wire.expectTrailers(supplier != null);
    }

    /** The trailer fields to send after the body, asked for once; {@code null} when there are none. */
    HeaderFields trailerFields() {
        Supplier<? extends Headers> supplier = trailers;
        trailers = null;
        Headers fields = supplier == null ? null : supplier.get();
        if (fields == null || fields.isEmpty()) {
            return null;
        }
        HeaderFields copy = new HeaderFields(fields.size());
        for (int i = 0; i < fields.size(); i++) {
            copy.add(fields.name(i), fields.value(i));
        }
        return copy;
    }

    ResponseFraming framing() {
        return plan.framing();
    }

    boolean keepAlive() {
        return plan.keepAlive();
    }

    ResponseBody responseBody() {
        return body;
    }

    /** Makes the next commit a {@code 101 Switching Protocols}. */
    void switchingProtocols() {
        status = 101;
    }

    /** Runs the listeners; returns the body encoding one of them installed, or {@code null}. */
    UnaryOperator<OutputStream> beforeCommit(boolean complete, int buffered) {
        if (firstListener == null) {
            return null;
        }
        // Those added while the listeners run are not run: the copy is taken first.
        List<CommitListener> more = moreListeners == null ? List.of() : List.copyOf(moreListeners);
        inListeners = true;
        try {
            firstListener.beforeCommit(complete, buffered);
            for (CommitListener listener : more) {
                listener.beforeCommit(complete, buffered);
            }
        } finally {
            inListeners = false;
        }
        return status == 101 ? null : encoding;
    }

    /**
     * Has the wire take the framing and keep-alive decision and prepare the head.
     *
     * @param complete whether the handler is done, so {@code bodyBytes} is the whole body
     * @param encoded whether a body encoding makes the length on the wire unknown
     */
    void commit(boolean complete, long bodyBytes, boolean encoded) {
        takeDeclaredLength();
        plan = wire.commit(status, headers, declaredLength, complete, bodyBytes, encoded);
        declaredLength = encoded ? -1 : declaredLength;
        committed = true;
    }

    private void takeDeclaredLength() {
        String value = headers.get(HeaderNames.CONTENT_LENGTH);
        if (value != null) {
            headers.remove(HeaderNames.CONTENT_LENGTH);
            try {
                declaredLength = Long.parseLong(value.strip());
            } catch (NumberFormatException ignored) {
                // A malformed length from the handler is dropped; the engine frames the body itself.
            }
        }
    }
}
