package io.sprout.engine.exchange;

import io.sprout.engine.Http2Config;
import io.sprout.engine.http.RequestHead;
import io.sprout.engine.http2.ErrorCode;
import io.sprout.engine.http2.FrameParser;
import io.sprout.engine.http2.FrameWriter;
import io.sprout.engine.http2.Http2Exception;
import io.sprout.engine.http2.Setting;

import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;

/**
 * One HTTP/2 connection (RFC 9113), in either execution mode: the event loop feeds it what the socket delivers
 * ({@link #received}); its {@link Http2FrameHandler} acts on each frame, and each new stream's request goes to a
 * worker as an {@link Exchange} over an {@link Http2Stream} — the same exchange an HTTP/1.1 connection runs, so
 * handlers, the Servlet layer and WebSocket's neighbours see one request model. Responses leave through the
 * {@link Http2Outbound}, from whichever thread writes them. This class keeps the connection's life: its streams'
 * ends, resets, the receive window, errors, graceful shutdown.
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

    private final ServerContext context;
    private final ConnectionChannel channel;
    private final Http2Config config;
    private final Runnable close;
    private final Http2Outbound outbound;
    private final StreamTable streams;
    private final Http2FrameHandler frames;
    private final FrameParser parser;
    private final RateCounter resets;
    private final ReceiveWindow receiveWindow;
    private final StreamExecution execution;
    private volatile boolean goingAway;
    private volatile boolean failed;
    private long idleSince = System.nanoTime();

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
        this.streams = new StreamTable(context.counters().http2StreamsActive);
        this.frames = new Http2FrameHandler(this, streams, config);
        this.parser = new FrameParser(config.maxFrameSize(), prefaceExpected, frames);
        this.receiveWindow = new ReceiveWindow(config.connectionWindowSize());
        this.resets = new RateCounter(config.maxResets(), config.rateWindow().toNanos());
        this.execution = new StreamExecution(config.maxConcurrentStreamExecution(), context.workers(),
                this::refusedByWorkers, this::forget);
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
        outbound.control(ByteBuffer.wrap(switching));
        start();
        frames.applySettings(clientSettings);
        streams.take(1);
        Http2Stream stream = open(1, body.length);
        stream.received(ByteBuffer.wrap(body));
        stream.input.end(null);
        execution.submit(stream, head);
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
        } finally {
            // The requests of the streams these bytes opened go to workers now, unless the bytes also reset them.
            execution.startWaiting();
        }
        outbound.flush();
    }

    /** Whether the loop should read more now: not once the connection failed, nor while much output waits. */
    public boolean wantsRead() {
        return !failed && outbound.queued() < READ_PAUSE;
    }

    /** Loop (sweep): readiness deadlines of the streams, and the idle timeout and the last close of a going-away connection. */
    public void expire(long now) {
        for (Http2Stream stream : streams.all()) {
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
        if (goingAway && outbound.queued() == 0) {
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
        outbound.control(FrameWriter.goAway(streams.lastId(), ErrorCode.NO_ERROR, ""));
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
        for (Http2Stream stream : streams.all()) {
            stream.closeAbruptly(ErrorCode.CANCEL);
            // An exchange waiting without a thread (a long poll) ends now, as it would at its next write.
            stream.abortExchange();
        }
        execution.dropWaiting();
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
        int streamIncrement = stream.input.credit(count, config.initialWindowSize() / 2);
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

    /**
     * Resets the stream from our side; {@code false} (and nothing sent) once it is closed. Counts towards the reset
     * budget unless {@link #costsNothing} says the client did nothing wrong.
     */
    boolean reset(Http2Stream stream, ErrorCode code) {
        if (!stream.resetBy(code, false)) {
            return false;
        }
        outbound.control(FrameWriter.rstStream(stream.id, code));
        outbound.flush();
        context.counters().http2ResetsSent.increment();
        if (!costsNothing(code) && !resets.tick()) {
            // MadeYouReset (CVE-2025-8671): the client makes the server reset streams instead of resetting them.
            // Perhaps on a worker: the connection ends here rather than by an exception through the exchange.
            connectionError(ErrorCode.ENHANCE_YOUR_CALM, "Too many streams reset");
        }
        return true;
    }

    /** Worker: the stream's exchange ended; the stream closes (reset, when the protocol says so) and is forgotten. */
    void exchangeEnded(Http2Stream stream, Outcome outcome) {
        execution.ended(stream);
        if (outcome == Outcome.ABORT || !stream.localHasEnded()) {
            reset(stream, ErrorCode.INTERNAL_ERROR);
        } else if (!stream.input.hasEnded() && stream.resetCode() == null) {
            // §8.1: the response is complete and the rest of the request is not wanted. Rather than reset the
            // stream, its remaining DATA is dropped (and its window given back) until the client ends it, so the
            // client sees a stream that ended normally; a client that never does is reset after the body timeout.
            stream.discardRest(System.nanoTime() + context.config().timeouts().bodyRead().toNanos());
            if (!stream.input.hasEnded()) {
                return;
            }
        }
        forget(stream);
    }

    /** Loop: a stream whose response is done ended its request too, or ran out of time for it. */
    void discarded(Http2Stream stream, boolean ended) {
        if (!ended) {
            reset(stream, ErrorCode.NO_ERROR);
        }
        forget(stream);
    }

    // ---- for the frame handler, on the event loop ----

    /** A new stream, open and counted; its request not yet dispatched. */
    Http2Stream open(int id, long declaredLength) {
        Http2Stream stream = new Http2Stream(id, this, frames.peerInitialWindow(), config.initialWindowSize());
        stream.input.declaredLength(declaredLength);
        streams.add(stream);
        idleSince = System.nanoTime();
        return stream;
    }

    boolean goingAway() {
        return goingAway;
    }

    /** The client sent GOAWAY: no new stream will come; the connection ends when its streams are done. */
    void clientGoingAway() {
        goingAway = true;
        closeIfDone();
    }

    /** A DATA frame's flow-controlled length arrived, counted against the connection's receive window. */
    void arrived(int flowControlled) {
        receiveWindow.arrived(flowControlled);
    }

    /** The client reset a stream: counted, and against the reset budget (Rapid Reset, CVE-2023-44487). */
    void resetReceived() {
        context.counters().http2ResetsReceived.increment();
        if (!resets.tick()) {
            throw calm("Too many streams reset");
        }
    }

    /** A stream refused as soon as it opened: reset with {@code code} and forgotten. */
    void refuse(Http2Stream stream, ErrorCode code) {
        reset(stream, code);
        forget(stream);
        stopIfFailed();
    }

    /** A rate control's budget is spent: GOAWAY ENHANCE_YOUR_CALM (counted with the other GOAWAYs). */
    static Http2Exception calm(String why) {
        return Http2Exception.connection(ErrorCode.ENHANCE_YOUR_CALM, why);
    }

    private void forget(Http2Stream stream) {
        streams.remove(stream);
        closeIfDone();
    }

    private void closeIfDone() {
        // A failed connection's streams have failed with it; a graceful end waits for its streams to finish.
        if ((failed || goingAway && streams.isEmpty()) && outbound.queued() == 0) {
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
        outbound.control(FrameWriter.goAway(streams.lastId(), code, message == null ? "" : message));
        outbound.flush();
        for (Http2Stream stream : streams.all()) {
            stream.closeAbruptly(ErrorCode.CANCEL);
        }
        closeIfDone();
    }

    /** Resets stream {@code streamId}, open or not: the answer to a frame that breaks the stream's rules. */
    void resetStream(int streamId, ErrorCode code) {
        Http2Stream stream = streams.get(streamId);
        if (stream != null && reset(stream, code)) {
            stopIfFailed();
            return;
        }
        // A stream closed already (or never opened): the frame alone answers the frame that offended.
        outbound.control(FrameWriter.rstStream(streamId, code));
        context.counters().http2ResetsSent.increment();
        if (!costsNothing(code) && !resets.tick()) {
            throw calm("Too many streams reset");
        }
    }

    /**
     * Resets the client is not to blame for: NO_ERROR (the response was complete), and REFUSED_STREAM, which we send
     * when we are going away or our workers are full, and for streams past the limit, before any handler ran.
     * Counting them would end a legitimate connection because the server is loaded.
     */
    private static boolean costsNothing(ErrorCode code) {
        return code == ErrorCode.NO_ERROR || code == ErrorCode.REFUSED_STREAM;
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

    /** Loop: a new stream's request, started once the bytes being parsed are. */
    void opened(Http2Stream stream, RequestHead head) {
        execution.hold(stream, head);
    }

    /** The workers refused the stream's request (their pool and queue are full): the client may retry it. */
    private void refusedByWorkers(Http2Stream stream) {
        context.counters().exchangesRefused.increment();
        reset(stream, ErrorCode.REFUSED_STREAM);
        forget(stream);
    }
}
