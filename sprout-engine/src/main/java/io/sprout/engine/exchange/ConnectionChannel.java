package io.sprout.engine.exchange;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

/**
 * The blocking view of one client connection that a worker uses while it runs an exchange. The two transports
 * differ only here: hybrid reads and writes a blocking socket; nio tries the non-blocking channel and, when it
 * would block, parks the worker until its event loop reports readiness. Called by one worker at a time.
 */
public interface ConnectionChannel {

    /**
     * Reads at least one byte into {@code dst} (in write mode), waiting up to {@code timeoutMillis}.
     *
     * @return bytes read, or -1 when the client has closed its side
     * @throws java.net.SocketTimeoutException when nothing arrived in time
     */
    int read(ByteBuffer dst, long timeoutMillis) throws IOException;

    /**
     * Writes every remaining byte of {@code src}, waiting while the client is slow to read, up to the server's
     * write timeout (after which the connection is closed and an exception thrown).
     */
    void write(ByteBuffer src) throws IOException;

    InetSocketAddress remoteAddress();

    InetSocketAddress localAddress();
}
