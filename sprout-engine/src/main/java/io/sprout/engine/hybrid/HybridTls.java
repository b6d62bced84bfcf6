package io.sprout.engine.hybrid;

import io.sprout.engine.TlsDetails;
import io.sprout.engine.tls.ServerTls;
import io.sprout.engine.tls.TlsChannel;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

/**
 * A hybrid connection's exchange side over TLS: the same blocking reads and writes as {@link HybridConnection}
 * offers a plaintext exchange, passed through the connection's {@link TlsChannel}. Everything runs on the
 * connection's own thread, the handshake and its delegated tasks included, as all I/O does in this mode.
 */
final class HybridTls implements BlockingChannel {

    private static final System.Logger LOG = System.getLogger(HybridTls.class.getName());

    /** What the handshake ended in. */
    enum Handshake {
        /** Done: serve requests. */
        SECURED,
        /** The client spoke plaintext HTTP: answer it 400 in plaintext and close. */
        PLAINTEXT_HTTP,
        /** It failed, timed out, or the client spoke neither: close. */
        FAILED
    }

    private final HybridConnection connection;
    private final SocketBytes socket;
    private final TlsChannel tls;
    private final long handshakeTimeoutNanos;

    HybridTls(HybridConnection connection, ServerTls serverTls) {
        this.connection = connection;
        this.socket = new SocketBytes(connection);
        this.tls = serverTls.newChannel(socket);
        this.handshakeTimeoutNanos = serverTls.handshakeTimeout().toNanos();
    }

    /** Runs the whole handshake on the calling (connection's) thread, within the handshake timeout. */
    Handshake handshake() {
        long deadline = System.nanoTime() + handshakeTimeoutNanos;
        socket.readDeadline(deadline);
        try {
            while (true) {
                switch (tls.handshake()) {
                    case DONE -> {
                        return Handshake.SECURED;
                    }
                    case TASKS -> tls.runDelegatedTasks();
                    case PLAINTEXT_HTTP -> {
                        return Handshake.PLAINTEXT_HTTP;
                    }
                    case NOT_TLS -> {
                        return Handshake.FAILED;
                    }
                    case READ, WRITE -> {
                        // A blocking socket waits inside the handshake step; the read deadline ends a stalled one.
                    }
                }
            }
        } catch (IOException | RuntimeException failed) {
            LOG.log(Level.DEBUG, "TLS handshake with " + connection.remoteAddress() + " failed: " + failed);
            return Handshake.FAILED;
        }
    }

    /** Sends {@code close_notify} before the connection shuts its output. */
    void closeOutbound() {
        tls.closeOutbound();
    }

    /** Returns the record buffers; once the connection has ended. */
    void release() {
        tls.release();
    }

    @Override
    public int read(ByteBuffer dst, long timeoutMillis) throws IOException {
        socket.readDeadline(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis));
        return tls.read(dst);
    }

    @Override
    public void write(ByteBuffer src) throws IOException {
        while (src.hasRemaining()) {
            tls.write(src);
        }
    }

    /** Records already read ahead are ready now; otherwise the connection's own wait reads the socket. */
    @Override
    public void whenReadable(long deadlineNanos, Runnable task) {
        if (tls.hasBufferedInput()) {
            task.run();
        } else {
            connection.whenReadable(deadlineNanos, task);
        }
    }

    /** The record layer reads through the connection, whose blocked read this ends. */
    @Override
    public void cutReadShort() {
        connection.cutReadShort();
    }

    @Override
    public void abort() {
        connection.close();
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return connection.remoteAddress();
    }

    @Override
    public InetSocketAddress localAddress() {
        return connection.localAddress();
    }

    @Override
    public TlsDetails tls() {
        return tls.details();
    }
}
