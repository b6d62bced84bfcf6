package io.sprout.engine.exchange;

import io.sprout.engine.http.BodyFraming;
import io.sprout.engine.http.HttpException;
import io.sprout.engine.http.RequestHead;

import java.io.IOException;

/**
 * What one {@link Exchange} needs from the protocol below it, and all it knows of it: the wires of its request body
 * and its response, the connection's facts (addresses, TLS), and the few events that concern the exchange as a
 * whole on the wire. Over HTTP/1.1 the stream is the connection itself, carrying one exchange at a time
 * ({@link HttpConnection}); an HTTP/2 stream is meant to be another implementation, many of them over one
 * connection, with no change to the exchange, the Servlet layer or WebSocket.
 */
interface ExchangeStream {

    ServerContext context();

    /** The connection's addresses and TLS facts, which the request reports. */
    ConnectionChannel channel();

    /**
     * How the request body is framed, given what its head declares: HTTP/1.1 has nothing to add; over HTTP/2 a
     * request without {@code Content-Length} still has a body until END_STREAM.
     */
    default BodyFraming bodyFraming(BodyFraming declared) {
        return declared;
    }

    /** The wire the request body arrives on. */
    RequestWire requestWire(BodyFraming framing, boolean expectContinue);

    /** The wire the response goes out on; {@code body} is the request's, whose state the protocol may consult. */
    ResponseWire responseWire(RequestHead head, RequestBody body);

    /** Answers a request the engine refused before any handler saw it (the caller then ends the stream). */
    void sendError(HttpException error) throws IOException;

    /**
     * The exchange has suspended: its handler returned without ending it. Called by the handler's worker before
     * anything queued for the exchange may run (see {@link ConnectionChannel#exchangeSuspended}).
     */
    void suspended();

    /** A suspended exchange has ended with {@code outcome}; on a worker, which the stream may keep. */
    void resumed(Outcome outcome);

    /** Drops the exchange at once, from any thread: blocked reads and writes fail (over HTTP/1.1, the connection). */
    void abort();
}
