package io.sprout.engine.exchange;

import io.sprout.engine.http.BodyFraming;
import io.sprout.engine.http.HeaderFields;
import io.sprout.engine.http.HeaderNames;
import io.sprout.engine.http.HttpVersion;
import io.sprout.engine.http.RequestRules;
import io.sprout.engine.http.HttpException;
import io.sprout.engine.http.RequestHead;
import io.sprout.engine.http.RequestHeadParser;
import io.sprout.engine.http.ResponseHeadEncoder;
import io.sprout.engine.http2.FrameParser;
import io.sprout.engine.http2.Setting;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One HTTP/1.1 connection's state, the same in both execution modes: the head parser, the unconsumed input, the
 * head encoder and the count of requests served. The transport gets heads from {@link #parseBuffered()} (after
 * filling {@link #inbound()}) and hands each to {@link #serve}. Over HTTP/1.1 the connection is the one
 * {@link ExchangeStream} of the exchange it serves: its wires frame bodies as RFC 9112 says. Used by one thread at a
 * time; it may move between an event loop and a worker through a happens-before hand-off.
 *
 * <p>Public because transport ({@code HeadReader}, {@code LoopConnection}, {@code ConnectionWorker}) drives one per
 * connection: the transport moves bytes and calls down into the exchange, never the reverse.
 */
public final class HttpConnection implements ExchangeStream {

    /** What the transport does once a suspended exchange has ended; called on a worker, which it may keep. */
    @FunctionalInterface
    public interface Continuation {
        void resumed(Outcome outcome);
    }

    private static final byte[] CONTINUE = "HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final String HTTP2_SETTINGS = "HTTP2-Settings";
    private static final byte[] SWITCHING_TO_H2C =
            "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII);

    private final ServerContext context;
    private final ConnectionChannel channel;
    private final Continuation continuation;
    private final Inbound inbound;
    private final RequestHeadParser parser;
    private final ResponseHeadEncoder encoder = new ResponseHeadEncoder();
    private int requests;

    /**
     * @param continuation told the outcome of each exchange that {@link #serve} reported as
     *     {@link Outcome#SUSPENDED}, once it ends
     */
    public HttpConnection(ServerContext context, ConnectionChannel channel,
            Continuation continuation) {
        this.context = context;
        this.channel = channel;
        this.continuation = continuation;
        this.inbound = new Inbound(context.pool(), context.counters());
        this.parser = new RequestHeadParser(context.parserLimits());
    }

    /**
     * Parses what is buffered.
     *
     * @return the next head, or {@code null} when more bytes are needed
     * @throws HttpException when the bytes are not a valid head
     */
    public RequestHead parseBuffered() {
        try {
            return parser.parse(inbound.buffer());
        } finally {
            inbound.releaseIfEmpty();
        }
    }

    /**
     * Worker, between exchanges: reads what the client has sent since, without waiting, and parses it.
     *
     * @return the next head when it is all there, else {@code null} (a part of it stays buffered for the loop)
     */
    public RequestHead readArrivedHead() throws IOException {
        ByteBuffer target = inbound.beforeRead();
        int count;
        try {
            count = channel.readNow(target);
        } catch (IOException e) {
            inbound.afterRead(0);
            throw e;
        }
        inbound.afterRead(count);
        return count > 0 ? parseBuffered() : null;
    }

    /**
     * Whether a plaintext client opens with HTTP/2's preface (prior knowledge, RFC 9113 §3.3), once HTTP/2 is on:
     * 1 yes, -1 no (HTTP/1.1), 0 not yet known (the bytes so far are the preface's beginning).
     */
    public int priorKnowledge() {
        if (context.config().http2() == null || requests > 0 || channel.tls() != null) {
            return -1;
        }
        return FrameParser.prefaceMatch(inbound.buffer());
    }

    /**
     * The client's SETTINGS when {@code head} asks to upgrade to h2c (RFC 7540 §3.2) and may: HTTP/2 is on, the
     * connection is plaintext, {@code Upgrade} offers {@code h2c}, {@code Connection} names both {@code Upgrade}
     * and {@code HTTP2-Settings}, and exactly one well-formed {@code HTTP2-Settings} field is there. Otherwise
     * {@code null}: the request is served over HTTP/1.1, as the RFC asks.
     */
    public long[] h2cUpgrade(RequestHead head) {
        HeaderFields headers = head.headers();
        if (context.config().http2() == null || channel.tls() != null || head.version() != HttpVersion.HTTP_1_1
                || !headers.containsToken(HeaderNames.UPGRADE, "h2c")
                || !headers.containsToken(HeaderNames.CONNECTION, "upgrade")
                || !headers.containsToken(HeaderNames.CONNECTION, HTTP2_SETTINGS)
                || headers.count(HTTP2_SETTINGS) != 1) {
            return null;
        }
        return Setting.fromUpgradeHeader(headers.get(HTTP2_SETTINGS));
    }

    /**
     * Worker: reads the upgrade request's body (at most {@code maxUpgradeBodySize}), then hands the request to
     * {@code session} as stream 1, which queues the {@code 101} before the server's preface.
     *
     * @return {@code false} when the request was answered over HTTP/1.1 instead (a bad head, or 413), and the
     *     connection is to be closed
     */
    public boolean upgradeToHttp2(RequestHead head, long[] settings, Http2Connection session) throws IOException {
        requests++;
        BodyFraming framing;
        try {
            framing = RequestRules.validate(head, context.config().http2().maxUpgradeBodySize());
        } catch (HttpException rejected) {
            sendError(rejected);
            return false;
        }
        byte[] body = readUpgradeBody(framing, context.config().http2().maxUpgradeBodySize());
        if (body == null) {
            sendError(new HttpException(413, "The body of an h2c upgrade request is too large"));
            return false;
        }
        session.startUpgraded(SWITCHING_TO_H2C, head, body, settings);
        return true;
    }

    /** The whole body, or {@code null} past {@code limit}. */
    private byte[] readUpgradeBody(BodyFraming framing, int limit) throws IOException {
        Http1RequestWire wire = new Http1RequestWire(this, framing, false);
        byte[] body = new byte[0];
        int length = 0;
        long timeout = context.config().timeouts().bodyRead().toMillis();
        while (!wire.ended()) {
            if (length == body.length) {
                if (length > limit) {
                    return null;
                }
                body = Arrays.copyOf(body, Math.min(limit + 1, Math.max(256, length * 2)));
            }
            int count = wire.decode(body, length, body.length - length);
            if (count < 0) {
                break;
            }
            if (count == 0 && wire.fill(timeout) < 0) {
                throw new IOException("The client closed during the body of its h2c upgrade request");
            }
            length += Math.max(0, count);
        }
        return length > limit ? null : Arrays.copyOf(body, length);
    }

    /**
     * Whether {@code rejected} is better answered by closing: the first line on a plaintext connection that may speak
     * HTTP/2 by prior knowledge is neither HTTP/1.x nor the preface (RFC 9113 §3.4: an invalid preface ends the
     * connection), so the client is no HTTP/1.x client to read a 400.
     */
    public boolean invalidPreface(HttpException rejected) {
        return context.config().http2() != null && requests == 0 && channel.tls() == null
                && RequestHeadParser.MALFORMED_VERSION.equals(rejected.getMessage());
    }

    /** Whether part of a head has arrived (the head deadline is running). */
    public boolean headInProgress() {
        return parser.inProgress();
    }

    /**
     * Runs one exchange: the handler, the response, and the clean-up of the request body. Returns
     * {@link Outcome#SUSPENDED} when the handler suspended it; the connection then belongs to the exchange until
     * the {@link Continuation} is called.
     */
    public Outcome serve(RequestHead head) {
        requests++;
        return new Exchange(this, head).run();
    }

    /** Answers a protocol error on the calling (worker) thread; the caller then closes the connection. */
    @Override
    public void sendError(HttpException error) throws IOException {
        write(ErrorResponses.encode(error.status(), context.date(), context.config().serverHeader()));
    }

    public Inbound inbound() {
        return inbound;
    }

    @Override
    public ConnectionChannel channel() {
        return channel;
    }

    @Override
    public ServerContext context() {
        return context;
    }

    /**
     * Between requests, when the connection has idled for a while: the parser's and the encoder's scratch arrays go,
     * and the next request makes them anew. Under load no connection idles that long, so serving allocates nothing.
     */
    public void trimIdle() {
        parser.trim();
        encoder.trim();
    }

    /** Returns the connection's buffers to the pool; call once the connection is closed. */
    public void release() {
        inbound.release();
    }

    @Override
    public RequestWire requestWire(BodyFraming framing, boolean expectContinue) {
        return new Http1RequestWire(this, framing, expectContinue);
    }

    @Override
    public ResponseWire responseWire(RequestHead head, RequestBody body) {
        return new Http1ResponseWire(this, head, body);
    }

    ResponseHeadEncoder encoder() {
        return encoder;
    }

    void sendContinue() throws IOException {
        write(ByteBuffer.wrap(CONTINUE));
    }

    void write(ByteBuffer bytes) throws IOException {
        int count = bytes.remaining();
        channel.write(bytes);
        context.counters().bytesOut.add(count);
    }

    int writeNow(ByteBuffer bytes) throws IOException {
        int count = channel.writeNow(bytes);
        context.counters().bytesOut.add(count);
        return count;
    }

    long transferNow(FileChannel file, long position, long count) throws IOException {
        long sent = channel.transferNow(file, position, count);
        context.counters().bytesOut.add(sent);
        return sent;
    }

    @Override
    public void resumed(Outcome outcome) {
        continuation.resumed(outcome);
    }

    @Override
    public void suspended() {
        channel.exchangeSuspended();
    }

    @Override
    public void abort() {
        channel.abort();
    }

    /** The server's side of the keep-alive decision, taken when a response commits. */
    boolean mayKeepAlive(RequestBody body) {
        int max = context.config().maxKeepAliveRequests();
        return !context.shutdown().draining()
                && (max < 0 || requests < max)
                && !body.awaitingContinue();
    }
}
