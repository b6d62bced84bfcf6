package io.sprout.engine.exchange;

import io.sprout.engine.http.ChunkHeader;
import io.sprout.engine.http.HeaderFields;
import io.sprout.engine.http.HeaderNames;
import io.sprout.engine.http.HttpVersion;
import io.sprout.engine.http.RequestHead;
import io.sprout.engine.http.ResponseHeadEncoder;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * A response over HTTP/1.1 (RFC 9112): the {@link ResponsePlan} decides between {@code Content-Length}, chunked and
 * close-delimited bodies and whether the connection is reused; the status line and fields are encoded into the
 * connection's {@link ResponseHeadEncoder} and sent in front of the first body bytes, in the same write when they
 * fit the headroom. Chunk-size lines go in the headroom and the last chunk in the tailroom.
 *
 * <p>At commit the wire owns the framing fields: a {@code Content-Length} set by the handler arrives as the declared
 * length, {@code Transfer-Encoding} is dropped, and {@code Connection} is rewritten from the keep-alive decision
 * ({@code Connection: close} from the handler is honoured; a 101 keeps the handler's field).
 */
final class Http1ResponseWire implements ResponseWire {

    /** Room before the body for the head and a chunk-size line; a larger head is written with a copy. */
    private static final int HEAD_RESERVE = 1024;
    /** Room after the body for the chunk's CRLF and the last chunk. */
    private static final int TAIL_RESERVE = 2 + ChunkHeader.LAST_CHUNK.length;

    private final HttpConnection connection;
    private final RequestHead request;
    private final RequestBody requestBody;
    private ResponsePlan plan;
    private boolean headSent;
    private boolean trailersExpected;
    private HeaderFields trailers;

    Http1ResponseWire(HttpConnection connection, RequestHead request, RequestBody requestBody) {
        this.connection = connection;
        this.request = request;
        this.requestBody = requestBody;
    }

    @Override
    public int headroom() {
        return HEAD_RESERVE;
    }

    @Override
    public int tailroom() {
        return TAIL_RESERVE;
    }

    @Override
    public ResponsePlan commit(int status, HeaderFields headers, long declaredLength, boolean complete,
            long bodyBytes, boolean encoded) {
        headers.remove(HeaderNames.TRANSFER_ENCODING);
        boolean closeRequested = headers.containsToken(HeaderNames.CONNECTION, "close");
        // Trailers go in the last chunk: a body of unknown length is chunked for them, as an encoded one is.
        boolean chunked = encoded || trailersExpected && declaredLength < 0;
        plan = ResponsePlan.decide(new ResponseFacts(request.version(), request.isHead(), status,
                declaredLength, complete, bodyBytes, chunked, closeRequested, KeepAlivePolicy.requested(request),
                connection.mayKeepAlive(requestBody)));
        if (plan.framing() != ResponseFraming.RAW) {
            headers.remove(HeaderNames.CONNECTION);
        }
        encodeHead(status, headers);
        return plan;
    }

    @Override
    public ByteBuffer frame(ByteBuffer region, boolean last) {
        int start = region.position();
        int end = plan.framing().hasBody() ? region.limit() : start;
        if (plan.framing() == ResponseFraming.CHUNKED) {
            byte[] array = region.array();
            if (end > start) {
                start = ChunkHeader.writeBefore(array, start, end - start);
                array[end++] = '\r';
                array[end++] = '\n';
            }
            if (last && trailers != null) {
                return framed(withTrailers(region.limit(end).position(start)));
            }
            if (last) {
                System.arraycopy(ChunkHeader.LAST_CHUNK, 0, array, end, ChunkHeader.LAST_CHUNK.length);
                end += ChunkHeader.LAST_CHUNK.length;
            }
        }
        return framed(region.limit(end).position(start));
    }

    @Override
    public void expectTrailers(boolean expected) {
        trailersExpected = expected;
    }

    @Override
    public void trailers(HeaderFields fields) {
        trailers = fields;
    }

    /** The last chunk with trailer fields (RFC 9112 §7.1.2), after the body bytes: too long for the tailroom. */
    private ByteBuffer withTrailers(ByteBuffer body) {
        ResponseHeadEncoder last = new ResponseHeadEncoder().startLastChunk();
        for (int i = 0; i < trailers.size(); i++) {
            last.field(trailers.name(i), trailers.value(i));
        }
        last.end();
        return ByteBuffer.allocate(body.remaining() + last.length()).put(body).put(last.bytes(), 0, last.length())
                .flip();
    }

    private ByteBuffer framed(ByteBuffer outgoing) {
        if (headSent) {
            return outgoing;
        }
        headSent = true;
        return withHead(outgoing);
    }

    @Override
    public void whenWritable(long deadlineNanos, Runnable task) {
        connection.channel().whenWritable(deadlineNanos, task);
    }

    @Override
    public void write(ByteBuffer bytes) throws IOException {
        connection.write(bytes);
    }

    @Override
    public int writeNow(ByteBuffer bytes) throws IOException {
        return connection.writeNow(bytes);
    }

    /** Chunks would frame the file's bytes; every other framing sends them as they are, after the head. */
    @Override
    public boolean sendsFileRegions() {
        return plan.framing() != ResponseFraming.CHUNKED && connection.channel().sendsFiles();
    }

    @Override
    public long transferNow(FileChannel file, long position, long count) throws IOException {
        return connection.transferNow(file, position, count);
    }

    /** Puts the encoded head before the region, in place when it fits the headroom, else in a copy. */
    private ByteBuffer withHead(ByteBuffer region) {
        byte[] head = connection.encoder().bytes();
        int headLength = connection.encoder().length();
        int start = region.position();
        if (headLength <= start) {
            System.arraycopy(head, 0, region.array(), start - headLength, headLength);
            return region.position(start - headLength);
        }
        ByteBuffer combined = ByteBuffer.allocate(headLength + region.remaining());
        combined.put(head, 0, headLength).put(region).flip();
        return combined;
    }

    private void encodeHead(int status, HeaderFields headers) {
        ResponseHeadEncoder encoder = connection.encoder().start(HttpVersion.HTTP_1_1, status);
        for (int i = 0; i < headers.size(); i++) {
            encoder.field(headers.name(i), headers.value(i));
        }
        ServerContext context = connection.context();
        if (!headers.contains(HeaderNames.DATE)) {
            encoder.field(HeaderNames.DATE, context.date().now());
        }
        String server = context.config().serverHeader();
        if (server != null && !headers.contains(HeaderNames.SERVER)) {
            encoder.field(HeaderNames.SERVER, server);
        }
        if (plan.contentLength() >= 0) {
            encoder.field(HeaderNames.CONTENT_LENGTH, plan.contentLength());
        } else if (plan.framing() == ResponseFraming.CHUNKED) {
            encoder.field(HeaderNames.TRANSFER_ENCODING, "chunked");
        }
        if (plan.connection() != null) {
            encoder.field(HeaderNames.CONNECTION, plan.connection());
        }
        encoder.end();
    }
}
