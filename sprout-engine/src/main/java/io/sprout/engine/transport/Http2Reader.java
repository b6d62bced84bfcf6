package io.sprout.engine.transport;

import io.sprout.engine.exchange.Http2Connection;
import io.sprout.engine.exchange.HttpConnection;
import io.sprout.engine.exchange.Inbound;
import io.sprout.engine.tls.TlsChannel;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;
import java.nio.channels.SelectionKey;

/**
 * The event loop's part of a {@link LoopConnection} once it speaks HTTP/2 (MULTIPLEXED), the same in both execution
 * modes: reads what arrives and feeds it to the {@link Http2Connection}, which hands each stream to a worker. The
 * socket stays non-blocking, in hybrid mode too: a connection's streams write from several workers at once, so no
 * worker may hold the socket in blocking mode. Reading pauses while the connection's output piles up (a client
 * that sends but does not read), and resumes when the socket takes it. Loop thread only.
 */
final class Http2Reader {

    private static final System.Logger LOG = System.getLogger(Http2Reader.class.getName());

    private final LoopConnection connection;
    private final HttpConnection http;
    private final ByteChannel io;
    private final TlsChannel tls;
    private final WorkerChannel worker;
    private final SelectorLoop loop;
    private Http2Connection h2;

    Http2Reader(LoopConnection connection, HttpConnection http, ByteChannel io, TlsChannel tls,
            WorkerChannel worker, SelectorLoop loop) {
        this.connection = connection;
        this.http = http;
        this.io = io;
        this.tls = tls;
        this.worker = worker;
        this.loop = loop;
    }

    /** A new HTTP/2 connection over this one; its client's preface comes first. It may end from any thread. */
    Http2Connection create() {
        return new Http2Connection(http.context(), worker, true, () -> loop.execute(this::ended),
                () -> loop.execute(connection::close));
    }

    /** Loop: the connection is HTTP/2 from now on; what is buffered already (the preface, frames) is read first. */
    void start(Http2Connection session, boolean serverPrefaceSent) {
        h2 = session;
        if (!serverPrefaceSent) {
            h2.start();
        }
        if (http.inbound().hasBuffered()) {
            feedBuffered();
        }
        read();
    }

    /** Loop: the socket is ready; readiness tasks (the output's flush) run, then what arrived is read. */
    void ready(SelectionKey key) {
        int readyOps = key.readyOps();
        worker.ready(readyOps);
        if (h2 != null && (readyOps & SelectionKey.OP_READ) != 0) {
            read();
        }
        watch(key);
    }

    /** Loop: what the connection wants watched now. */
    void watch(SelectionKey key) {
        if (h2 != null && key.isValid() && !connection.isClosed()) {
            key.interestOps((h2.wantsRead() ? SelectionKey.OP_READ : 0) | worker.wantedOps());
        }
    }

    void expire(long now) {
        worker.expire(now);
        if (h2 != null) {
            h2.expire(now);
        }
    }

    /** Graceful shutdown: GOAWAY, the streams taken finish. */
    void goAway() {
        if (h2 != null) {
            h2.goAway();
        }
    }

    void closed() {
        if (h2 != null) {
            h2.closed();
        }
    }

    /**
     * The HTTP/2 connection is done (GOAWAY written, no stream left). Its streams are failed and our side ended, then
     * it lingers as an HTTP/1.1 connection does after its last answer: a client still sending would otherwise get a
     * reset, which may destroy the GOAWAY before it reads it.
     */
    private void ended() {
        if (!connection.isMultiplexed()) {
            return;
        }
        closed();
        try {
            connection.shutdownOutput();
        } catch (IOException e) {
            connection.close();
            return;
        }
        connection.end(true);
    }

    private void read() {
        Inbound inbound = http.inbound();
        try {
            do {
                if (!h2.wantsRead()) {
                    return;
                }
                ByteBuffer target = inbound.beforeRead();
                int count = io.read(target);
                inbound.afterRead(count);
                if (count < 0) {
                    connection.close();
                    return;
                }
                if (count == 0) {
                    return;
                }
                feedBuffered();
                // Whole records the TLS layer read ahead: the socket will not report them again.
            } while (tls != null && tls.hasBufferedInput());
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "Reading HTTP/2 from " + connection.remoteAddress() + " failed: " + e);
            connection.close();
        }
    }

    private void feedBuffered() {
        Inbound inbound = http.inbound();
        h2.received(inbound.buffer());
        inbound.releaseIfEmpty();
    }
}
