package io.sprout.engine.exchange;

import io.sprout.engine.http.HeaderFields;
import io.sprout.engine.http.HeaderNames;
import io.sprout.engine.http.RequestHead;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A response over HTTP/2 (RFC 9113 §8.1): the status and fields become a HEADERS frame (HPACK-encoded by the
 * connection's {@link Http2Outbound}, in the order frames leave), the body DATA frames within the flow-control
 * windows, the last one carrying END_STREAM. The connection outlives every response, so the plan never keeps a
 * "connection" alive or closes it, and the fields HTTP/2 forbids (§8.2.2) are dropped at commit.
 *
 * <p>The head is queued with the first body bytes (or alone, with END_STREAM, when there are none), so a small
 * response leaves in one write. Buffers need no headroom: frames are copied into the outbound's buffers.
 */
final class Http2ResponseWire implements ResponseWire {

    private static final String[] CONNECTION_SPECIFIC = {HeaderNames.CONNECTION, HeaderNames.KEEP_ALIVE,
        "Proxy-Connection", HeaderNames.TRANSFER_ENCODING, HeaderNames.UPGRADE};

    private final Http2Stream stream;
    private final RequestHead request;
    private ResponsePlan plan;
    private int status;
    private HeaderFields headers;
    private boolean headSent;
    private boolean last;
    private HeaderFields trailers;

    Http2ResponseWire(Http2Stream stream, RequestHead request) {
        this.stream = stream;
        this.request = request;
    }

    @Override
    public int headroom() {
        return 0;
    }

    @Override
    public int tailroom() {
        return 0;
    }

    @Override
    public ResponsePlan commit(int status, HeaderFields headers, long declaredLength, boolean complete,
            long bodyBytes, boolean encoded) {
        for (String name : CONNECTION_SPECIFIC) {
            headers.remove(name);
        }
        headers.remove(HeaderNames.CONTENT_LENGTH);
        boolean noBody = request.isHead() || status < 200 || status == 204 || status == 304;
        long length = status < 200 || status == 204 || encoded ? -1
                : declaredLength >= 0 ? declaredLength
                : complete && !encoded ? bodyBytes : -1;
        ResponseFraming framing = noBody ? ResponseFraming.NONE
                : length >= 0 ? ResponseFraming.FIXED : ResponseFraming.CHUNKED;
        plan = new ResponsePlan(framing, length, false, null);
        this.status = status;
        this.headers = headers;
        ServerContext context = stream.context();
        if (!headers.contains(HeaderNames.DATE)) {
            headers.add("date", context.date().now());
        }
        String server = context.config().serverHeader();
        if (server != null && !headers.contains(HeaderNames.SERVER)) {
            headers.add("server", server);
        }
        if (length >= 0) {
            headers.add("content-length", Long.toString(length));
        }
        return plan;
    }

    @Override
    public void expectTrailers(boolean expected) {
        // HTTP/2 frames trailers as a HEADERS frame of their own: the body's framing does not change.
    }

    @Override
    public void trailers(HeaderFields fields) {
        for (String name : CONNECTION_SPECIFIC) {
            fields.remove(name);
        }
        trailers = fields.isEmpty() ? null : fields;
    }

    @Override
    public ByteBuffer frame(ByteBuffer region, boolean last) {
        if (!plan.framing().hasBody()) {
            region.position(region.limit());
            trailers = null;
        }
        // With trailers to follow, the last DATA frame does not end the stream: their HEADERS frame does.
        this.last = last && trailers == null;
        if (!headSent) {
            headSent = true;
            boolean endsHere = this.last && !region.hasRemaining();
            stream.connection().outbound().headers(stream, status, headers, endsHere);
            if (endsHere) {
                stream.localEnded();
            }
            stream.connection().outbound().flush();
        } else if (this.last && !region.hasRemaining() && !stream.localHasEnded()) {
            endWithEmptyData();
        }
        if (last && trailers != null && !region.hasRemaining()) {
            sendTrailers();
        }
        return region;
    }

    @Override
    public void whenWritable(long deadlineNanos, Runnable task) {
        stream.whenWritable(deadlineNanos, task);
    }

    @Override
    public void write(ByteBuffer bytes) throws IOException {
        stream.connection().outbound().data(stream, bytes, last, true);
        afterData(bytes);
    }

    @Override
    public int writeNow(ByteBuffer bytes) throws IOException {
        int count = stream.connection().outbound().data(stream, bytes, last, false);
        afterData(bytes);
        return count;
    }

    /** Once the last body bytes are queued, the trailers follow them; then what is queued is written. */
    private void afterData(ByteBuffer bytes) {
        if (!bytes.hasRemaining() && trailers != null) {
            sendTrailers();
        }
        stream.connection().outbound().flush();
    }

    private void sendTrailers() {
        stream.connection().outbound().headers(stream, 0, trailers, true);
        trailers = null;
        stream.localEnded();
        stream.connection().outbound().flush();
    }

    /** The body ended after bytes already sent: an empty DATA frame carries END_STREAM (it needs no window). */
    private void endWithEmptyData() {
        try {
            stream.connection().outbound().data(stream, ByteBuffer.allocate(0), true, false);
            stream.connection().outbound().flush();
        } catch (IOException resetOrGone) {
            // The stream or the connection is gone; the exchange learns it from its next write or its end.
        }
    }
}
