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
import io.sprout.engine.http2.FrameListener;
import io.sprout.engine.http2.FrameParser;
import io.sprout.engine.http2.FrameWriter;
import io.sprout.engine.http2.Http2Exception;
import io.sprout.engine.http2.Setting;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;

/**
 * One HTTP/2 connection (RFC 9113), in either execution mode: the event loop feeds it what the socket delivers
 * ({@link #received}); it parses frames, keeps the streams' states and the flow-control windows, and hands each new
 * stream's request to a worker as an {@link Exchange} over an {@link Http2Stream} — the same exchange an HTTP/1.1
 * connection runs, so handlers, the Servlet layer and WebSocket's neighbours see one request model. Responses leave
 * through the {@link Http2Outbound}, from whichever thread writes them.
 *
 * <p>Errors: a connection error sends GOAWAY with its code and closes once it is written; a stream error resets the
 * stream only. Floods end the connection with {@code ENHANCE_YOUR_CALM} ({@link RateCounter}, budgets in
 * {@link Http2Config}). Graceful shutdown ({@link #goAway}) sends GOAWAY with the last stream taken, lets those
 * streams finish, refuses new ones, and closes when none is left.
 *
 * <p>Frame events run on the event loop only; workers call {@link #consumed}, {@link #reset} and
 * {@link #exchangeEnded}, which touch only thread-safe state.
 *
 * <p>Public because transport creates one when a connection turns to HTTP/2 (prior knowledge, ALPN or an h2c upgrade)
 * and feeds it: the transport moves bytes, the exchange layer speaks the protocol.
 */
public final class Http2Connection {

    private static final System.Logger LOG = System.getLogger(Http2Connection.class.getName());
    /** Queued output beyond which the loop stops reading, so a client that does not read cannot make us queue. */
    private static final long READ_PAUSE = 4L * Http2Outbound.HIGH_WATER;
    /** WINDOW_UPDATE increments below this are overhead (data dribble) unless they complete a body. */
    private static final int SMALL_WINDOW_UPDATE = 1024;

    private final ServerContext context;
    private final ConnectionChannel channel;
    private final Http2Config config;
    private final Runnable close;
    private final Http2Outbound outbound;
    private final FrameParser parser;
    private final HpackDecoder decoder;
    private final Map<Integer, Http2Stream> streams = new ConcurrentHashMap<>();
    private final ClosedStreams closedStreams = new ClosedStreams();
    private final RateCounter resets;
    private final RateCounter controlFrames;
    private final RateCounter emptyFrames;
    private final ReceiveWindow receiveWindow;
    private final HeaderBlock block;
    /** A new stream whose HEADERS the parser already refused; 0 when none. */
    private int refusedBlock;
    private long peerInitialWindow = 65_535;
    private int lastStreamId;
    private volatile boolean goingAway;
    private volatile boolean failed;
    private long idleSince = System.nanoTime();
    // The DATA frame being received.
    private Http2Stream dataStream;
    private int dataFlowControlled;
    private int dataBytes;

    /**
     * @param prefaceExpected whether the client's preface comes first (not after an h2c upgrade, whose 101 the
     *     client answers with the preface too: then also {@code true}; {@code false} only in tests)
     * @param close ends the connection once it is done (its GOAWAY written, no stream left): our side is shut and
     *     what the client still sends is read and dropped for a moment, so a reset does not destroy the GOAWAY
     * @param abort closes the connection at once, when its output failed or timed out (nothing more can reach
     *     the client)
     */
    public Http2Connection(ServerContext context, ConnectionChannel channel, boolean prefaceExpected,
            Runnable close, Runnable abort) {
        this.context = context;
        this.channel = channel;
        this.config = context.config().http2();
        this.close = close;
        this.outbound = new Http2Outbound(channel, context.pool(), context.counters(),
                context.config().timeouts().write().toNanos(), abort);
        this.parser = new FrameParser(config.maxFrameSize(), prefaceExpected, new Events());
        this.decoder = new HpackDecoder(config.headerTableSize(), config.maxHeaderListSize());
        this.receiveWindow = new ReceiveWindow(config.connectionWindowSize());
        this.block = new HeaderBlock(config.maxHeaderListSize());
        long window = config.rateWindow().toNanos();
        this.resets = new RateCounter(config.maxResets(), window);
        this.controlFrames = new RateCounter(config.maxControlFrames(), window);
        this.emptyFrames = new RateCounter(config.maxEmptyFrames(), window);
    }

    /** Loop: sends the server's preface (SETTINGS, and the connection window beyond the RFC's 65,535). */
    public void start() {
        int[] ids = {Setting.MAX_CONCURRENT_STREAMS, Setting.INITIAL_WINDOW_SIZE, Setting.MAX_FRAME_SIZE,
            Setting.HEADER_TABLE_SIZE, Setting.MAX_HEADER_LIST_SIZE, Setting.ENABLE_PUSH,
            Setting.NO_RFC7540_PRIORITIES};
        long[] values = {config.maxConcurrentStreams(), config.initialWindowSize(), config.maxFrameSize(),
            config.headerTableSize(), config.maxHeaderListSize(), 0, 1};
        outbound.control(FrameWriter.settings(ids, values));
        int extra = config.connectionWindowSize() - 65_535;
        if (extra > 0) {
            outbound.control(FrameWriter.windowUpdate(0, extra));
        }
        outbound.flush();
    }

    /**
     * Worker, h2c upgrade (RFC 7540 §3.2): the {@code 101} goes first, then the server's preface; the upgrade
     * request becomes stream 1, half-closed (remote) with its whole body, and is served like any other.
     */
    public void startUpgraded(byte[] switching, RequestHead head, byte[] body, long[] clientSettings) {
        outbound.raw(switching);
        start();
        applySettings(clientSettings);
        lastStreamId = 1;
        Http2Stream stream = new Http2Stream(1, this, peerInitialWindow, config.initialWindowSize());
        stream.declaredLength(body.length);
        streams.put(1, stream);
        stream.received(ByteBuffer.wrap(body));
        stream.remoteEnded(null);
        dispatch(stream, head);
    }

    /** Decodes the base64url SETTINGS payload of an {@code HTTP2-Settings} field; {@code null} when malformed. */
    public static long[] upgradeSettings(String http2Settings) {
        byte[] payload;
        try {
            payload = Base64.getUrlDecoder().decode(http2Settings.strip());
        } catch (IllegalArgumentException malformed) {
            return null;
        }
        if (payload.length % 6 != 0) {
            return null;
        }
        long[] pairs = new long[payload.length / 6 * 2];
        ByteBuffer in = ByteBuffer.wrap(payload);
        for (int i = 0; i < pairs.length; i += 2) {
            pairs[i] = in.getShort() & 0xffff;
            pairs[i + 1] = in.getInt() & 0xffffffffL;
        }
        return pairs;
    }

    /** Loop: parses what arrived; a connection error ends the connection (GOAWAY first). */
    public void received(ByteBuffer in) {
        if (failed) {
            in.position(in.limit());
            return;
        }
        try {
            parser.parse(in);
        } catch (Http2Exception error) {
            connectionError(error.code(), error.getMessage());
            in.position(in.limit());
        }
        outbound.flush();
    }

    /** Whether the loop should read more now: not once the connection failed, nor while much output waits. */
    public boolean wantsRead() {
        return !failed && outbound.queued() < READ_PAUSE;
    }

    /** Loop (sweep): readiness deadlines of the streams, and the idle timeout and the last close of a going-away connection. */
    public void expire(long now) {
        for (Http2Stream stream : streams.values()) {
            stream.expire(now);
            if (stream.discardOverdue(now)) {
                discarded(stream, false);
            }
        }
        if (failed) {
            // Its streams have failed already; their workers learn it at their next read or write.
            close.run();
            return;
        }
        if (!streams.isEmpty()) {
            idleSince = now;
            return;
        }
        if (goingAway && outbound.idle()) {
            // A graceful end waits for the last responses to be written (the write timeout bounds that wait).
            close.run();
        } else if (now - idleSince > context.config().timeouts().idle().toNanos()) {
            goAway();
        }
    }

    /** Graceful end: GOAWAY with the last stream taken; those finish, later ones are refused. Loop. */
    public void goAway() {
        if (goingAway) {
            return;
        }
        goingAway = true;
        context.counters().goAway(ErrorCode.NO_ERROR);
        outbound.control(FrameWriter.goAway(lastStreamId, ErrorCode.NO_ERROR, ""));
        outbound.flush();
        closeIfDone();
    }

    /** Whether no stream is open: a graceful shutdown may close the connection at once. */
    public boolean idle() {
        return streams.isEmpty();
    }

    /** Loop: the connection closed; every stream fails, the buffers go back to the pool. */
    public void closed() {
        failed = true;
        for (Http2Stream stream : streams.values()) {
            stream.closeAbruptly(ErrorCode.CANCEL);
            // An exchange waiting without a thread (a long poll) ends now, as it would at its next write.
            stream.abortExchange();
        }
        outbound.close();
    }

    // ---- for streams, from any thread ----

    ServerContext context() {
        return context;
    }

    ConnectionChannel channel() {
        return channel;
    }

    Http2Outbound outbound() {
        return outbound;
    }

    /** A worker read {@code count} body bytes of {@code stream}: the windows open again, in steps of half. */
    void consumed(Http2Stream stream, int count) {
        int streamIncrement = stream.credit(count, config.initialWindowSize() / 2);
        if (streamIncrement > 0) {
            outbound.control(FrameWriter.windowUpdate(stream.id, streamIncrement));
        }
        released(count);
        outbound.flush();
    }

    /** Bytes the connection's window may count again (read, padding, or dropped with a reset stream). */
    void released(int count) {
        if (count <= 0) {
            return;
        }
        int increment = receiveWindow.released(count);
        if (increment > 0) {
            outbound.control(FrameWriter.windowUpdate(0, increment));
        }
    }

    /** Resets the stream from our side; {@code false} (and nothing sent) once it is closed. Counts towards the reset budget. */
    boolean reset(Http2Stream stream, ErrorCode code) {
        if (!stream.resetBy(code, false)) {
            return false;
        }
        outbound.control(FrameWriter.rstStream(stream.id, code));
        outbound.flush();
        context.counters().http2ResetsSent.increment();
        if (code != ErrorCode.NO_ERROR && !resets.tick()) {
            // MadeYouReset (CVE-2025-8671): the client makes the server reset streams instead of resetting them.
            // Perhaps on a worker: the connection ends here rather than by an exception through the exchange.
            connectionError(ErrorCode.ENHANCE_YOUR_CALM, "Too many streams reset");
        }
        return true;
    }

    /** Worker: the stream's exchange ended; the stream closes (reset, when the protocol says so) and is forgotten. */
    void exchangeEnded(Http2Stream stream, Outcome outcome) {
        if (outcome == Outcome.ABORT || !stream.localHasEnded()) {
            reset(stream, ErrorCode.INTERNAL_ERROR);
        } else if (!stream.remoteHasEnded() && stream.resetCode() == null) {
            // §8.1: the response is complete and the rest of the request is not wanted. Rather than reset the
            // stream, its remaining DATA is dropped (and its window given back) until the client ends it, so the
            // client sees a stream that ended normally; a client that never does is reset after the body timeout.
            stream.discardRest(System.nanoTime() + context.config().timeouts().bodyRead().toNanos());
            if (!stream.remoteHasEnded()) {
                return;
            }
        }
        forget(stream);
    }

    /** Loop: a stream whose response is done ended its request too, or ran out of time for it. */
    private void discarded(Http2Stream stream, boolean ended) {
        if (!ended) {
            reset(stream, ErrorCode.NO_ERROR);
        }
        forget(stream);
    }

    /** The stream's readiness tasks have deadlines the sweep must watch; they are watched for every stream. */
    void watchDeadlines(Http2Stream stream) {
        // Every open stream is swept (see expire): nothing to register.
    }

    // ---- the event loop's side ----

    private void forget(Http2Stream stream) {
        closedStreams.closed(stream.id, stream.resetByUs());
        if (streams.remove(stream.id) != null) {
            context.counters().http2StreamsActive.decrement();
        }
        closeIfDone();
    }

    private void closeIfDone() {
        // A failed connection's streams have failed with it; a graceful end waits for its streams to finish.
        if ((failed || goingAway && streams.isEmpty()) && outbound.idle()) {
            close.run();
        }
    }

    private void connectionError(ErrorCode code, String message) {
        if (failed) {
            return;
        }
        LOG.log(Level.DEBUG, () -> "HTTP/2 connection error " + code + ": " + message);
        failed = true;
        context.counters().goAway(code);
        outbound.control(FrameWriter.goAway(lastStreamId, code, message == null ? "" : message));
        outbound.flush();
        for (Http2Stream stream : streams.values()) {
            stream.closeAbruptly(ErrorCode.CANCEL);
        }
        closeIfDone();
    }

    /** A rate control's budget is spent: GOAWAY ENHANCE_YOUR_CALM (counted with the other GOAWAYs). */
    private static void calm(String why) {
        throw Http2Exception.connection(ErrorCode.ENHANCE_YOUR_CALM, why);
    }

    private void resetStream(int streamId, ErrorCode code) {
        Http2Stream stream = streams.get(streamId);
        if (stream != null && reset(stream, code)) {
            stopIfFailed();
            return;
        }
        // A stream closed already (or never opened): the frame alone answers the frame that offended.
        outbound.control(FrameWriter.rstStream(streamId, code));
        context.counters().http2ResetsSent.increment();
        if (!resets.tick()) {
            calm("Too many streams reset");
        }
    }

    /**
     * Loop: a reset just spent the budget and ended the connection; the rest of what arrived is not parsed (the
     * parser stops at the exception, and {@link #received} has nothing more to do).
     */
    private void stopIfFailed() {
        if (failed) {
            throw Http2Exception.connection(ErrorCode.ENHANCE_YOUR_CALM, "The connection has ended");
        }
    }

    private void applySettings(long[] pairs) {
        for (int i = 0; i < pairs.length; i += 2) {
            applySetting((int) pairs[i], pairs[i + 1]);
        }
    }

    private void applySetting(int id, long value) {
        Setting.check(id, value);
        switch (id) {
            case Setting.HEADER_TABLE_SIZE -> outbound.peerSettings(value, -1);
            case Setting.MAX_FRAME_SIZE -> outbound.peerSettings(-1, value);
            case Setting.INITIAL_WINDOW_SIZE -> {
                long delta = value - peerInitialWindow;
                peerInitialWindow = value;
                for (Http2Stream stream : streams.values()) {
                    try {
                        outbound.streamWindowUpdate(stream, delta);
                    } catch (Http2Exception overflow) {
                        // §6.9.2: a change that overflows a stream window is a connection error.
                        throw Http2Exception.connection(ErrorCode.FLOW_CONTROL_ERROR, overflow.getMessage());
                    }
                }
            }
            default -> {
                // The rest asks nothing of a server that never pushes (ENABLE_PUSH, MAX_CONCURRENT_STREAMS, ...).
            }
        }
    }

    private void openStream(int id, boolean endStream, ByteBuffer headerBlock) {
        Http2RequestFields fields = new Http2RequestFields(false);
        boolean tooLarge = decode(headerBlock, fields);
        if (goingAway) {
            resetStream(id, ErrorCode.REFUSED_STREAM);
            return;
        }
        if (openStreams() >= config.maxConcurrentStreams()) {
            // Counted from the first frame, before the client acknowledges the limit (CVE-2025-53506).
            resetStream(id, ErrorCode.REFUSED_STREAM);
            return;
        }
        RequestHead head;
        long declared;
        try {
            head = fields.head();
            declared = declaredLength(head.headers());
        } catch (HttpException malformed) {
            LOG.log(Level.DEBUG, () -> "Malformed HTTP/2 request on stream " + id + ": " + malformed.getMessage());
            resetStream(id, ErrorCode.PROTOCOL_ERROR);
            return;
        }
        Http2Stream stream = new Http2Stream(id, this, peerInitialWindow, config.initialWindowSize());
        stream.declaredLength(declared);
        streams.put(id, stream);
        context.counters().http2StreamsActive.increment();
        idleSince = System.nanoTime();
        if (endStream) {
            if (declared > 0) {
                reset(stream, ErrorCode.PROTOCOL_ERROR);
                forget(stream);
                stopIfFailed();
                return;
            }
            stream.remoteEnded(null);
        }
        if (tooLarge) {
            answer(stream, 431);
            return;
        }
        dispatch(stream, head);
    }

    /**
     * Streams that count against the concurrency limit: all but those closed both ways whose worker has yet to
     * forget them (the client already sees them closed). A stream the client reset counts until its exchange ends,
     * so resetting cannot make the server run more than the limit's handlers at once (Rapid Reset).
     */
    private int openStreams() {
        int open = 0;
        for (Http2Stream stream : streams.values()) {
            if (!stream.closedBothWays()) {
                open++;
            }
        }
        return open;
    }

    /** Answers the stream at once with an empty response of {@code status}, without a handler. */
    private void answer(Http2Stream stream, int status) {
        try {
            stream.sendError(new HttpException(status, ""));
        } catch (IOException gone) {
            // Only queued: nothing is written here.
        }
        exchangeEnded(stream, Outcome.CLOSE);
    }

    private void dispatch(Http2Stream stream, RequestHead head) {
        try {
            context.workers().execute(() -> serve(stream, head));
        } catch (RejectedExecutionException full) {
            context.counters().exchangesRefused.increment();
            reset(stream, ErrorCode.REFUSED_STREAM);
            forget(stream);
            stopIfFailed();
        }
    }

    /** Worker: runs the stream's exchange; a suspended one ends later, through {@link Http2Stream#resumed}. */
    private void serve(Http2Stream stream, RequestHead head) {
        Outcome outcome;
        try {
            Exchange exchange = new Exchange(stream, head);
            stream.exchange(exchange);
            outcome = exchange.run();
        } catch (RuntimeException | Error bug) {
            LOG.log(Level.ERROR, "Serving HTTP/2 stream " + stream.id + " failed", bug);
            outcome = Outcome.ABORT;
        }
        if (outcome != Outcome.SUSPENDED) {
            exchangeEnded(stream, outcome);
        }
    }

    private void trailers(Http2Stream stream, ByteBuffer headerBlock, boolean endStream) {
        Http2RequestFields fields = new Http2RequestFields(true);
        boolean tooLarge = decode(headerBlock, fields);
        if (!endStream || tooLarge) {
            resetStream(stream.id, ErrorCode.PROTOCOL_ERROR);
            return;
        }
        HeaderFields trailerFields;
        try {
            trailerFields = fields.trailers();
        } catch (HttpException malformed) {
            resetStream(stream.id, ErrorCode.PROTOCOL_ERROR);
            return;
        }
        if (stream.lengthMismatch(true)) {
            resetStream(stream.id, ErrorCode.PROTOCOL_ERROR);
            return;
        }
        stream.remoteEnded(trailerFields);
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

    private void headerBlockComplete() {
        int id = block.streamId();
        boolean endStream = block.endsStream();
        ByteBuffer headerBlock = block.take();
        if (id == refusedBlock) {
            refusedBlock = 0;
            decode(headerBlock, new Http2RequestFields(false));
            return;
        }
        Http2Stream stream = streams.get(id);
        if (id > lastStreamId) {
            lastStreamId = id;
            openStream(id, endStream, headerBlock);
            return;
        }
        if (stream == null || stream.resetCode() != null) {
            // Decoded anyway: the HPACK table must stay in step with the client's.
            decode(headerBlock, new Http2RequestFields(false));
            Boolean resetByUs = stream != null ? Boolean.valueOf(stream.resetByUs()) : closedStreams.resetByUs(id);
            if (resetByUs == null) {
                throw Http2Exception.connection(ErrorCode.PROTOCOL_ERROR, "Stream " + id + " reused or out of order");
            }
            if (!resetByUs) {
                throw Http2Exception.connection(ErrorCode.STREAM_CLOSED, "HEADERS on closed stream " + id);
            }
            return;
        }
        if (stream.remoteHasEnded()) {
            decode(headerBlock, new Http2RequestFields(true));
            if (stream.localHasEnded()) {
                // Closed both ways, though its worker has yet to forget it.
                throw Http2Exception.connection(ErrorCode.STREAM_CLOSED, "HEADERS on closed stream " + id);
            }
            resetStream(id, ErrorCode.STREAM_CLOSED);
            return;
        }
        trailers(stream, headerBlock, endStream);
    }

    /** The parser's events, on the event loop. */
    private final class Events implements FrameListener {

        @Override
        public void dataStart(int streamId, int flowControlled, boolean endStream) {
            receiveWindow.arrived(flowControlled);
            if (flowControlled == 0 && !endStream && !emptyFrames.tick()) {
                calm("Too many empty frames");
            }
            dataFlowControlled = flowControlled;
            dataBytes = 0;
            dataStream = null;
            if (streamId > lastStreamId) {
                throw Http2Exception.connection(ErrorCode.PROTOCOL_ERROR, "DATA on idle stream " + streamId);
            }
            Http2Stream stream = streams.get(streamId);
            if (stream == null || stream.resetCode() != null) {
                released(flowControlled);
                Boolean resetByUs = stream != null ? Boolean.valueOf(stream.resetByUs()) : closedStreams.resetByUs(streamId);
                if (resetByUs == null || !resetByUs) {
                    resetStream(streamId, ErrorCode.STREAM_CLOSED);
                }
                return;
            }
            if (stream.remoteHasEnded()) {
                released(flowControlled);
                resetStream(streamId, ErrorCode.STREAM_CLOSED);
                return;
            }
            if (!stream.dataFrame(flowControlled)) {
                released(flowControlled);
                resetStream(streamId, ErrorCode.FLOW_CONTROL_ERROR);
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
            consumed(stream, dataFlowControlled - dataBytes);
            if (stream.lengthMismatch(endStream)) {
                resetStream(streamId, ErrorCode.PROTOCOL_ERROR);
                return;
            }
            if (endStream) {
                stream.remoteEnded(null);
                if (stream.discarding()) {
                    discarded(stream, true);
                }
            }
        }

        @Override
        public void headersStart(int streamId, boolean endStream, boolean endHeaders) {
            if ((streamId & 1) == 0) {
                throw Http2Exception.connection(ErrorCode.PROTOCOL_ERROR, "Even stream id " + streamId);
            }
            block.begin(streamId, endStream);
        }

        @Override
        public void continuationStart(int streamId, boolean endHeaders) {
            // The block goes on; the parser has checked that it is this stream's.
            block.nextFrame();
        }

        @Override
        public void headerBlock(int streamId, ByteBuffer fragment) {
            if (!block.add(fragment)) {
                // CONTINUATION flood (CVE-2024-27316): never buffer beyond the limit, end the connection.
                calm("Header block larger than " + config.maxHeaderListSize() + " bytes");
            }
        }

        @Override
        public void headerBlockEnd(int streamId, boolean endHeaders) {
            if (!endHeaders) {
                // Empty frames that keep a block open cost a frame each and never reach the size limit (the
                // CONTINUATION flood of CVE-2023-45288 and kin): empty frames like empty DATA.
                if (block.frameEmpty() && !emptyFrames.tick()) {
                    calm("Too many empty HEADERS or CONTINUATION frames");
                }
                return;
            }
            headerBlockComplete();
        }

        @Override
        public void priority(int streamId) {
            if (!controlFrames.tick()) {
                calm("Too many PRIORITY frames");
            }
        }

        @Override
        public void rstStream(int streamId, int errorCode) {
            if (streamId > lastStreamId) {
                throw Http2Exception.connection(ErrorCode.PROTOCOL_ERROR, "RST_STREAM on idle stream " + streamId);
            }
            context.counters().http2ResetsReceived.increment();
            if (!resets.tick()) {
                calm("Too many streams reset");
            }
            Http2Stream stream = streams.get(streamId);
            if (stream != null && stream.resetBy(ErrorCode.of(errorCode) == null ? ErrorCode.CANCEL
                    : ErrorCode.of(errorCode), true)) {
                stream.abortExchange();
            }
        }

        @Override
        public void settings(int[] ids, long[] values) {
            if (!controlFrames.tick()) {
                calm("Too many SETTINGS frames");
            }
            if (ids.length > config.maxSettingsEntries()) {
                calm("Too many SETTINGS entries");
            }
            // Acknowledged first: a stream that a larger window wakes must not send DATA ahead of the ACK (a client
            // may wait for the ACK before it reads on), and the HPACK table size update follows the ACK (RFC 7541
            // §4.2).
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
                calm("Too many PING frames");
            }
            if (!ack) {
                outbound.control(FrameWriter.ping(true, opaqueData));
            }
        }

        @Override
        public void goAway(int lastStreamId, int errorCode, ByteBuffer debugData) {
            goingAway = true;
            closeIfDone();
        }

        @Override
        public void windowUpdate(int streamId, int increment) {
            if (increment < SMALL_WINDOW_UPDATE && !controlFrames.tick()) {
                calm("Too many small WINDOW_UPDATE frames");
            }
            if (streamId == 0) {
                if (increment == 0) {
                    throw Http2Exception.connection(ErrorCode.PROTOCOL_ERROR, "WINDOW_UPDATE of 0");
                }
                outbound.connectionWindowUpdate(increment);
                return;
            }
            if (streamId > lastStreamId) {
                throw Http2Exception.connection(ErrorCode.PROTOCOL_ERROR, "WINDOW_UPDATE on idle stream " + streamId);
            }
            Http2Stream stream = streams.get(streamId);
            if (stream == null || stream.resetCode() != null) {
                return;
            }
            if (increment == 0) {
                resetStream(streamId, ErrorCode.PROTOCOL_ERROR);
                return;
            }
            try {
                outbound.streamWindowUpdate(stream, increment);
            } catch (Http2Exception overflow) {
                resetStream(streamId, ErrorCode.FLOW_CONTROL_ERROR);
            }
        }

        @Override
        public void unknownFrame(int type, int streamId, int length) {
            if (!controlFrames.tick()) {
                calm("Too many frames of unknown types");
            }
        }

        @Override
        public void streamError(Http2Exception error) {
            int id = error.streamId();
            if (id > lastStreamId && (id & 1) == 1) {
                // A new stream refused by its HEADERS' priority fields: its header block, still to come, is decoded
                // for the HPACK table's sake and dropped.
                lastStreamId = id;
                refusedBlock = id;
                closedStreams.closed(id, true);
            }
            resetStream(id, error.code());
        }
    }
}
