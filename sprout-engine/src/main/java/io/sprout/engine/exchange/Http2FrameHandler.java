package io.sprout.engine.exchange;

import io.sprout.engine.Http2Config;
import io.sprout.engine.http2.ErrorCode;
import io.sprout.engine.http2.FrameListener;
import io.sprout.engine.http2.FrameWriter;
import io.sprout.engine.http2.Http2Exception;
import io.sprout.engine.http2.Setting;

import java.nio.ByteBuffer;

/**
 * What an HTTP/2 connection does with each frame the parser reads: DATA into its stream (counted against the
 * receive windows), header blocks to {@link Http2HeaderBlocks}, the control frames answered or applied, and the
 * flood budgets of RFC 9113 §10.5 and the 2019 CVEs spent — a spent budget ends the connection with
 * {@code ENHANCE_YOUR_CALM}. Event loop only.
 */
final class Http2FrameHandler implements FrameListener {

    /** WINDOW_UPDATE increments below this are overhead (data dribble) unless they complete a body. */
    private static final int SMALL_WINDOW_UPDATE = 1024;

    private final Http2Connection connection;
    private final StreamTable streams;
    private final Http2Outbound outbound;
    private final Http2Config config;
    private final Http2HeaderBlocks headers;
    private final RateCounter controlFrames;
    private final RateCounter emptyFrames;
    private long peerInitialWindow = 65_535;
    // The DATA frame being received.
    private Http2Stream dataStream;
    private int dataFlowControlled;
    private int dataBytes;

    Http2FrameHandler(Http2Connection connection, StreamTable streams, Http2Config config) {
        this.connection = connection;
        this.streams = streams;
        this.outbound = connection.outbound();
        this.config = config;
        this.headers = new Http2HeaderBlocks(connection, streams, config);
        long window = config.rateWindow().toNanos();
        this.controlFrames = new RateCounter(config.maxControlFrames(), window);
        this.emptyFrames = new RateCounter(config.maxEmptyFrames(), window);
    }

    /** Applies the client's settings, as identifier/value pairs (from an h2c upgrade's {@code HTTP2-Settings}). */
    void applySettings(long[] pairs) {
        for (int i = 0; i < pairs.length; i += 2) {
            applySetting((int) pairs[i], pairs[i + 1]);
        }
    }

    /** The client's {@code SETTINGS_INITIAL_WINDOW_SIZE}: a new stream's send window. */
    long peerInitialWindow() {
        return peerInitialWindow;
    }

    @Override
    public void dataStart(int streamId, int flowControlled, boolean endStream) {
        connection.arrived(flowControlled);
        if (flowControlled == 0 && !endStream && !emptyFrames.tick()) {
            throw Http2Connection.calm("Too many empty frames");
        }
        dataFlowControlled = flowControlled;
        dataBytes = 0;
        dataStream = null;
        if (streams.idle(streamId)) {
            throw Http2Exception.connection(ErrorCode.PROTOCOL_ERROR, "DATA on idle stream " + streamId);
        }
        Http2Stream stream = streams.get(streamId);
        if (stream == null || stream.resetCode() != null) {
            connection.released(flowControlled);
            Boolean resetByUs = streams.resetByUs(streamId);
            if (resetByUs == null || !resetByUs) {
                connection.resetStream(streamId, ErrorCode.STREAM_CLOSED);
            }
            return;
        }
        if (stream.input.hasEnded()) {
            connection.released(flowControlled);
            connection.resetStream(streamId, ErrorCode.STREAM_CLOSED);
            return;
        }
        if (!stream.input.dataFrame(flowControlled)) {
            connection.released(flowControlled);
            connection.resetStream(streamId, ErrorCode.FLOW_CONTROL_ERROR);
            return;
        }
        dataStream = stream;
    }

    @Override
    public void data(int streamId, ByteBuffer bytes) {
        if (dataStream != null) {
            dataBytes += bytes.remaining();
            dataStream.received(bytes);
        }
        bytes.position(bytes.limit());
    }

    @Override
    public void dataEnd(int streamId, boolean endStream) {
        Http2Stream stream = dataStream;
        dataStream = null;
        if (stream == null) {
            return;
        }
        // Padding counts against the windows but is never read: it is given back at once.
        connection.consumed(stream, dataFlowControlled - dataBytes);
        if (stream.input.lengthMismatch(endStream)) {
            connection.resetStream(streamId, ErrorCode.PROTOCOL_ERROR);
            return;
        }
        if (endStream) {
            stream.input.end(null);
            if (stream.discarding()) {
                connection.discarded(stream, true);
            }
        }
    }

    @Override
    public void headersStart(int streamId, boolean endStream, boolean endHeaders) {
        headers.begin(streamId, endStream);
    }

    @Override
    public void continuationStart(int streamId, boolean endHeaders) {
        // The block goes on; the parser has checked that it is this stream's.
        headers.nextFrame();
    }

    @Override
    public void headerBlock(int streamId, ByteBuffer fragment) {
        headers.add(fragment);
    }

    @Override
    public void headerBlockEnd(int streamId, boolean endHeaders) {
        // Empty frames that keep a block open cost a frame each and never reach the size limit (the CONTINUATION
        // flood of CVE-2023-45288 and kin): empty frames like empty DATA.
        if (headers.frameEnd(endHeaders) && !emptyFrames.tick()) {
            throw Http2Connection.calm("Too many empty HEADERS or CONTINUATION frames");
        }
    }

    @Override
    public void priority(int streamId) {
        if (!controlFrames.tick()) {
            throw Http2Connection.calm("Too many PRIORITY frames");
        }
    }

    @Override
    public void rstStream(int streamId, int errorCode) {
        if (streams.idle(streamId)) {
            throw Http2Exception.connection(ErrorCode.PROTOCOL_ERROR, "RST_STREAM on idle stream " + streamId);
        }
        connection.resetReceived();
        Http2Stream stream = streams.get(streamId);
        ErrorCode code = ErrorCode.of(errorCode);
        if (stream != null && stream.resetBy(code == null ? ErrorCode.CANCEL : code, true)) {
            stream.abortExchange();
        }
    }

    @Override
    public void settings(int[] ids, long[] values) {
        if (!controlFrames.tick()) {
            throw Http2Connection.calm("Too many SETTINGS frames");
        }
        if (ids.length > config.maxSettingsEntries()) {
            throw Http2Connection.calm("Too many SETTINGS entries");
        }
        // Acknowledged first: a stream that a larger window wakes must not send DATA ahead of the ACK (a client may
        // wait for the ACK before it reads on), and the HPACK table size update follows the ACK (RFC 7541 §4.2).
        outbound.control(FrameWriter.settingsAck());
        for (int i = 0; i < ids.length; i++) {
            applySetting(ids[i], values[i]);
        }
    }

    @Override
    public void settingsAck() {
        // Our settings hold from the first frame on; the acknowledgement changes nothing.
    }

    @Override
    public void ping(boolean ack, long opaqueData) {
        if (!controlFrames.tick()) {
            throw Http2Connection.calm("Too many PING frames");
        }
        if (!ack) {
            outbound.control(FrameWriter.ping(true, opaqueData));
        }
    }

    @Override
    public void goAway(int lastStreamId, int errorCode, ByteBuffer debugData) {
        connection.clientGoingAway();
    }

    @Override
    public void windowUpdate(int streamId, int increment) {
        if (increment < SMALL_WINDOW_UPDATE && !controlFrames.tick()) {
            throw Http2Connection.calm("Too many small WINDOW_UPDATE frames");
        }
        if (streamId == 0) {
            if (increment == 0) {
                throw Http2Exception.connection(ErrorCode.PROTOCOL_ERROR, "WINDOW_UPDATE of 0");
            }
            outbound.windowUpdate(null, increment);
            return;
        }
        if (streams.idle(streamId)) {
            throw Http2Exception.connection(ErrorCode.PROTOCOL_ERROR, "WINDOW_UPDATE on idle stream " + streamId);
        }
        Http2Stream stream = streams.get(streamId);
        if (stream == null || stream.resetCode() != null) {
            return;
        }
        if (increment == 0) {
            connection.resetStream(streamId, ErrorCode.PROTOCOL_ERROR);
            return;
        }
        try {
            outbound.windowUpdate(stream, increment);
        } catch (Http2Exception overflow) {
            connection.resetStream(streamId, ErrorCode.FLOW_CONTROL_ERROR);
        }
    }

    @Override
    public void unknownFrame(int type, int streamId, int length) {
        if (!controlFrames.tick()) {
            throw Http2Connection.calm("Too many frames of unknown types");
        }
    }

    @Override
    public void streamError(Http2Exception error) {
        int id = error.streamId();
        if (streams.idle(id) && (id & 1) == 1) {
            headers.refused(id);
        }
        connection.resetStream(id, error.code());
    }

    private void applySetting(int id, long value) {
        Setting.check(id, value);
        switch (id) {
            case Setting.HEADER_TABLE_SIZE -> outbound.peerSettings(value, -1);
            case Setting.MAX_FRAME_SIZE -> outbound.peerSettings(-1, value);
            case Setting.INITIAL_WINDOW_SIZE -> initialWindowChanged(value);
            default -> {
                // The rest asks nothing of a server that never pushes (ENABLE_PUSH, MAX_CONCURRENT_STREAMS, ...).
            }
        }
    }

    /** A new {@code SETTINGS_INITIAL_WINDOW_SIZE} changes every open stream's send window by the difference. */
    private void initialWindowChanged(long value) {
        long delta = value - peerInitialWindow;
        peerInitialWindow = value;
        for (Http2Stream stream : streams.all()) {
            try {
                outbound.windowUpdate(stream, delta);
            } catch (Http2Exception overflow) {
                // §6.9.2: a change that overflows a stream window is a connection error.
                throw Http2Exception.connection(ErrorCode.FLOW_CONTROL_ERROR, overflow.getMessage());
            }
        }
    }
}
