package io.sprout.engine.tls;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSession;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What the handshake and the data phase of one TLS connection share: the socket, the engine once it exists, the
 * three record buffers and the lock on the outgoing one. The incoming side ({@code netIn}, {@code plainIn}) belongs
 * to the one thread that owns the connection; the outgoing side ({@code netOut}) to whoever holds
 * {@link #outbound()}, because a writer and a reader answering a key update may overlap.
 */
final class TlsRecords {

    private static final ByteBuffer NOTHING = ByteBuffer.allocate(0);
    private static final int RECORD_HEADER = 5;

    final ByteChannel net;
    final RecordBuffer netIn;
    final RecordBuffer plainIn;
    final RecordBuffer netOut;
    private final ReentrantLock outbound = new ReentrantLock();
    private volatile int recordCapacity;
    private volatile SSLEngine engine;
    private volatile boolean released;

    TlsRecords(ServerTls server, ByteChannel net) {
        this.net = net;
        this.netIn = new RecordBuffer(server.pool());
        this.plainIn = new RecordBuffer(server.pool());
        this.netOut = new RecordBuffer(server.pool());
        this.recordCapacity = server.pool().bufferSize();
    }

    SSLEngine engine() {
        return engine;
    }

    /** Set once, when the ClientHello has chosen the engine's context. */
    void engine(SSLEngine created) {
        engine = created;
    }

    /** Held by everything that writes into {@code netOut} or sends from it. */
    ReentrantLock outbound() {
        return outbound;
    }

    int recordCapacity() {
        return recordCapacity;
    }

    /** Reads what the socket has into {@code netIn}: -1 at its end, 0 when a non-blocking socket has nothing. */
    int readNet() throws IOException {
        ByteBuffer target = netIn.beforeWrite(recordCapacity);
        try {
            return net.read(target);
        } finally {
            netIn.afterWrite();
        }
    }

    /** Sends what {@code netOut} holds as far as the socket takes it; the caller holds {@link #outbound()}. */
    boolean flushNet() throws IOException {
        ByteBuffer pending = netOut.readable();
        while (pending.hasRemaining()) {
            if (net.write(pending) == 0) {
                return false;
            }
        }
        netOut.releaseIfEmpty();
        return true;
    }

    /** {@link #flushNet()} under the lock. */
    boolean flush() throws IOException {
        outbound.lock();
        try {
            return flushNet();
        } finally {
            outbound.unlock();
        }
    }

    /**
     * Wraps what the engine itself has to send (handshake messages, an alert, a key update, close_notify) into
     * {@code netOut}; the caller holds {@link #outbound()}.
     */
    SSLEngineResult wrapEngineOutput() throws SSLException {
        ByteBuffer target = netOut.beforeWrite(recordCapacity);
        SSLEngineResult result;
        try {
            result = engine.wrap(NOTHING, target);
        } finally {
            netOut.afterWrite();
        }
        if (result.getStatus() == SSLEngineResult.Status.BUFFER_OVERFLOW) {
            growForSession();
        }
        return result;
    }

    /**
     * Wraps and sends what the engine itself has to send (a key update's answer; a failed handshake's queued
     * messages and its alert; close_notify) until it has nothing more, or has closed, or the socket takes no more.
     * Each wrap needs an empty {@code netOut}: the engine wants room for a whole record.
     */
    void sendEngineOutput() throws IOException {
        outbound.lock();
        try {
            while (flushNet()) {
                SSLEngineResult result = wrapEngineOutput();
                if (result.bytesProduced() == 0 || result.getStatus() == SSLEngineResult.Status.CLOSED) {
                    flushNet();
                    return;
                }
            }
        } finally {
            outbound.unlock();
        }
    }

    /** The session may want larger buffers than the pool's (a peer that negotiated larger records). */
    void growForSession() {
        SSLSession session = engine.getSession();
        int needed = Math.max(session.getPacketBufferSize(), session.getApplicationBufferSize());
        if (needed > recordCapacity) {
            recordCapacity = needed;
        }
    }

    /** Whether {@code netIn} holds at least one whole record, which a read decrypts without the socket. */
    boolean holdsWholeRecord() {
        ByteBuffer records = netIn.readable();
        int available = records.remaining();
        if (available < RECORD_HEADER) {
            return false;
        }
        int at = records.position();
        int length = (records.get(at + 3) & 0xff) << 8 | records.get(at + 4) & 0xff;
        return available >= RECORD_HEADER + length;
    }

    /** Gives the buffers back; every later use fails. */
    void release() {
        outbound.lock();
        try {
            released = true;
            netOut.release();
        } finally {
            outbound.unlock();
        }
        netIn.release();
        plainIn.release();
    }

    boolean released() {
        return released;
    }

    void ensureOpen() throws ClosedChannelException {
        if (released) {
            throw new ClosedChannelException();
        }
    }
}
