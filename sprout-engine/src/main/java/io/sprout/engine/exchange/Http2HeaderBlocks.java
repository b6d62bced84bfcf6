package io.sprout.engine.exchange;

import io.sprout.engine.Http2Config;
import io.sprout.engine.hpack.HeaderListTooLargeException;
import io.sprout.engine.hpack.HpackDecoder;
import io.sprout.engine.hpack.HpackException;
import io.sprout.engine.http.HeaderFields;
import io.sprout.engine.http.HttpException;
import io.sprout.engine.http.Http2RequestFields;
import io.sprout.engine.http.RequestHead;
import io.sprout.engine.http2.ErrorCode;
import io.sprout.engine.http2.Http2Exception;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;

/**
 * The header blocks an HTTP/2 connection receives (a HEADERS frame and its CONTINUATIONs), decoded with the
 * connection's HPACK table: a block on a new id opens a stream and hands its request to a worker, a second block on
 * an open stream is its trailers, and a block on a closed or refused stream is decoded anyway — the table must stay
 * in step with the client's — and answered as RFC 9113 §5.1 says. Event loop only.
 */
final class Http2HeaderBlocks {

    private static final System.Logger LOG = System.getLogger(Http2HeaderBlocks.class.getName());

    private final Http2Connection connection;
    private final StreamTable streams;
    private final Http2Config config;
    private final HpackDecoder decoder;
    private final HeaderBlock block;
    /** A new stream whose HEADERS the parser already refused; 0 when none. */
    private int refusedBlock;

    Http2HeaderBlocks(Http2Connection connection, StreamTable streams, Http2Config config) {
        this.connection = connection;
        this.streams = streams;
        this.config = config;
        this.decoder = new HpackDecoder(config.headerTableSize(), config.maxHeaderListSize());
        this.block = new HeaderBlock(config.maxHeaderListSize());
    }

    void begin(int streamId, boolean endStream) {
        if ((streamId & 1) == 0) {
            throw Http2Exception.connection(ErrorCode.PROTOCOL_ERROR, "Even stream id " + streamId);
        }
        block.begin(streamId, endStream);
    }

    void nextFrame() {
        block.nextFrame();
    }

    void add(ByteBuffer fragment) {
        if (!block.add(fragment)) {
            // CONTINUATION flood (CVE-2024-27316): never buffer beyond the limit, end the connection.
            throw Http2Connection.calm("Header block larger than " + config.maxHeaderListSize() + " bytes");
        }
    }

    /** @return whether the frame that ended was empty and left the block open (counted as an empty frame) */
    boolean frameEnd(boolean endHeaders) {
        if (!endHeaders) {
            return block.frameEmpty();
        }
        complete();
        return false;
    }

    /** A new stream refused by its HEADERS' priority fields: its block, still to come, is decoded and dropped. */
    void refused(int streamId) {
        streams.refused(streamId);
        refusedBlock = streamId;
    }

    private void complete() {
        int id = block.streamId();
        boolean endStream = block.endsStream();
        ByteBuffer headerBlock = block.take();
        if (id == refusedBlock) {
            refusedBlock = 0;
            decode(headerBlock, new Http2RequestFields(false));
            return;
        }
        if (streams.idle(id)) {
            streams.take(id);
            open(id, endStream, headerBlock);
            return;
        }
        Http2Stream stream = streams.get(id);
        if (stream == null || stream.resetCode() != null) {
            decode(headerBlock, new Http2RequestFields(false));
            Boolean resetByUs = streams.resetByUs(id);
            if (resetByUs == null) {
                throw Http2Exception.connection(ErrorCode.PROTOCOL_ERROR, "Stream " + id + " reused or out of order");
            }
            if (!resetByUs) {
                throw Http2Exception.connection(ErrorCode.STREAM_CLOSED, "HEADERS on closed stream " + id);
            }
            return;
        }
        if (stream.input.hasEnded()) {
            decode(headerBlock, new Http2RequestFields(true));
            if (stream.localHasEnded()) {
                // Closed both ways, though its worker has yet to forget it.
                throw Http2Exception.connection(ErrorCode.STREAM_CLOSED, "HEADERS on closed stream " + id);
            }
            connection.resetStream(id, ErrorCode.STREAM_CLOSED);
            return;
        }
        trailers(stream, headerBlock, endStream);
    }

    private void open(int id, boolean endStream, ByteBuffer headerBlock) {
        Http2RequestFields fields = new Http2RequestFields(false);
        boolean tooLarge = decode(headerBlock, fields);
        if (connection.goingAway()) {
            connection.resetStream(id, ErrorCode.REFUSED_STREAM);
            return;
        }
        if (streams.concurrent() >= config.maxConcurrentStreams()) {
            // Counted from the first frame, before the client acknowledges the limit (CVE-2025-53506).
            connection.resetStream(id, ErrorCode.REFUSED_STREAM);
            return;
        }
        RequestHead head;
        long declared;
        try {
            head = fields.head();
            declared = declaredLength(head.headers());
        } catch (HttpException malformed) {
            LOG.log(Level.DEBUG, () -> "Malformed HTTP/2 request on stream " + id + ": " + malformed.getMessage());
            connection.resetStream(id, ErrorCode.PROTOCOL_ERROR);
            return;
        }
        Http2Stream stream = connection.open(id, declared);
        if (endStream) {
            if (declared > 0) {
                connection.refuse(stream, ErrorCode.PROTOCOL_ERROR);
                return;
            }
            stream.input.end(null);
        }
        if (tooLarge) {
            answer(stream, 431);
            return;
        }
        connection.opened(stream, head);
    }

    /** Answers the stream at once with an empty response of {@code status}, without a handler. */
    private void answer(Http2Stream stream, int status) {
        try {
            stream.sendError(new HttpException(status, ""));
        } catch (IOException gone) {
            // Only queued: nothing is written here.
        }
        connection.exchangeEnded(stream, Outcome.CLOSE);
    }

    private void trailers(Http2Stream stream, ByteBuffer headerBlock, boolean endStream) {
        Http2RequestFields fields = new Http2RequestFields(true);
        boolean tooLarge = decode(headerBlock, fields);
        if (!endStream || tooLarge) {
            connection.resetStream(stream.id, ErrorCode.PROTOCOL_ERROR);
            return;
        }
        HeaderFields trailerFields;
        try {
            trailerFields = fields.trailers();
        } catch (HttpException malformed) {
            connection.resetStream(stream.id, ErrorCode.PROTOCOL_ERROR);
            return;
        }
        if (stream.input.lengthMismatch(true)) {
            connection.resetStream(stream.id, ErrorCode.PROTOCOL_ERROR);
            return;
        }
        stream.input.end(trailerFields);
    }

    /** Decodes a header block; whether the list was too large (the table is in sync either way). */
    private boolean decode(ByteBuffer headerBlock, Http2RequestFields fields) {
        try {
            decoder.decode(headerBlock, fields::field);
            return false;
        } catch (HpackException e) {
            throw Http2Exception.connection(ErrorCode.COMPRESSION_ERROR, e.getMessage());
        } catch (HeaderListTooLargeException e) {
            return true;
        }
    }

    private static long declaredLength(HeaderFields headers) {
        String value = headers.get("content-length");
        if (value == null) {
            return -1;
        }
        if (headers.count("content-length") > 1 || value.isEmpty() || value.length() > 18
                || !value.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new HttpException(400, "Invalid content-length");
        }
        return Long.parseLong(value);
    }
}
