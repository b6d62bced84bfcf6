package io.sprout.engine.exchange;

import io.sprout.engine.http.BodyFraming;
import io.sprout.engine.http.HttpException;
import io.sprout.engine.http.RequestHead;
import io.sprout.engine.http.RequestHeadParser;
import io.sprout.engine.http.ResponseHeadEncoder;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

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
