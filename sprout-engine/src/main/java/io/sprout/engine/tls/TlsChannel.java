package io.sprout.engine.tls;

import io.sprout.engine.TlsDetails;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;
import java.nio.channels.ClosedChannelException;

/**
 * One connection's TLS layer, between the socket ({@code net}) and the HTTP codec, which reads and writes plaintext
 * here as it would on the socket itself. It works over a non-blocking channel (where 0 means "would block": the
 * handshake on the event loop, every exchange in nio mode, a hybrid worker until it would wait) and over a blocking
 * one (a hybrid worker from then on, the transport's {@code SocketIo}, whose reads wait or time out).
 *
 * <p>{@link #handshake()} comes first, until {@link HandshakeStep#DONE} ({@link TlsHandshake}); the engine's
 * delegated tasks are the caller's to run where it likes ({@link #runDelegatedTasks()}). After it, the engine may not
 * start another handshake: a TLS 1.2 renegotiation fails the read that meets it, and the transport closes the
 * connection before the engine has answered. TLS 1.3 key updates, which are no handshake, are answered.
 *
 * <p>A write the socket takes only part of keeps the encrypted rest and reports the plaintext it came from as not
 * yet written: the caller offers those same bytes again, first, in its next write (as the exchange's unsent output
 * does), which counts them once their records are out. So "all written" means "all on the socket", as without TLS.
 *
 * <p>Threads: {@link #handshake()} and {@link #read} are called by the one thread that owns the connection; writes
 * and {@link #closeOutbound()} may come from any thread, one at a time, and may overlap a read.
 *
 * <p>Public because transport reads and writes through it as it would on the socket: tls is a layer between the socket
 * and the codec that the transport owns.
 */
public final class TlsChannel implements ByteChannel {

    private static final System.Logger LOG = System.getLogger(TlsChannel.class.getName());

    private final TlsRecords records;
    private final TlsHandshake handshake;
    private volatile TlsDetails details;
    private boolean tls13;
    /** Plaintext at the writer's position already encrypted into {@code netOut}; counted once that is sent. */
    private int unacknowledged;
    private boolean inboundDone;

    TlsChannel(ServerTls server, ByteChannel net) {
        this.records = new TlsRecords(server, net);
        this.handshake = new TlsHandshake(server, records);
    }

    /**
     * Advances the handshake as far as it goes without waiting; the event loop calls it on readiness.
     *
     * @throws IOException when the client fails the handshake or closes during it, or no context can be had; the
     *     connection is then to be closed (the engine's alert, if it had one, has been sent)
     */
    public HandshakeStep handshake() throws IOException {
        records.ensureOpen();
        HandshakeStep step = handshake.advance();
        if (step == HandshakeStep.DONE) {
            TlsDetails negotiated = handshake.negotiated();
            tls13 = "TLSv1.3".equals(negotiated.protocol());
            details = negotiated;
        }
        return step;
    }

    /** Runs the engine's delegated tasks (key agreement, certificate checks): on a worker, never on an event loop. */
    public void runDelegatedTasks() {
        SSLEngine engine = records.engine();
        Runnable task;
        while ((task = engine.getDelegatedTask()) != null) {
            task.run();
        }
    }

    /** What the handshake negotiated; {@code null} until it is done. */
    public TlsDetails details() {
        return details;
    }

    /**
     * Whether a {@link #read} would return bytes without the socket: decrypted bytes wait, or a whole record is
     * buffered. A transport that waits for socket readiness must ask this first, or it would wait for bytes it has.
     */
    public boolean hasBufferedInput() {
        return records.plainIn.hasRemaining() || records.holdsWholeRecord();
    }

    /**
     * Reads plaintext into {@code dst}.
     *
     * @return bytes read; 0 when a non-blocking socket has no whole record yet; -1 once the client has closed (with
     *     {@code close_notify}, or without, which HTTP's own framing then judges)
     * @throws SSLException for a corrupt record or a refused renegotiation
     */
    @Override
    public int read(ByteBuffer dst) throws IOException {
        records.ensureOpen();
        while (true) {
            if (records.plainIn.hasRemaining()) {
                return takePlaintext(dst);
            }
            if (inboundDone) {
                return -1;
            }
            if (records.netIn.hasRemaining()) {
                int count = unwrapRecord(dst);
                if (count >= 0) {
                    if (count > 0) {
                        return count;
                    }
                    continue;
                }
            }
            int count = records.readNet();
            if (count < 0) {
                inboundDone = true;
                return -1;
            }
            if (count == 0) {
                return 0;
            }
        }
    }

    /**
     * Encrypts and sends what the socket takes now (everything, over a blocking socket).
     *
     * @return plaintext bytes whose records are all on the socket; {@code src} has advanced by as many
     */
    @Override
    public int write(ByteBuffer src) throws IOException {
        records.outbound().lock();
        try {
            records.ensureOpen();
            int written = 0;
            while (true) {
                if (!records.flushNet()) {
                    return written;
                }
                if (unacknowledged > 0) {
                    int sent = Math.min(unacknowledged, src.remaining());
                    src.position(src.position() + sent);
                    written += sent;
                    unacknowledged = 0;
                }
                if (!src.hasRemaining()) {
                    return written;
                }
                wrapFrom(src);
            }
        } finally {
            records.outbound().unlock();
        }
    }

    /**
     * Sends {@code close_notify} as far as the socket takes it now; the caller then shuts the socket's output. Best
     * effort: a client already gone changes nothing, the connection is closing anyway.
     */
    public void closeOutbound() {
        records.outbound().lock();
        try {
            SSLEngine engine = records.engine();
            if (records.released() || engine == null) {
                return;
            }
            engine.closeOutbound();
            records.sendEngineOutput();
        } catch (IOException clientGone) {
            LOG.log(Level.DEBUG, "close_notify not sent: " + clientGone);
        } finally {
            records.outbound().unlock();
        }
    }

    /** Gives the buffers back; later reads and writes fail. Once the connection is closed, by its owner. */
    public void release() {
        records.release();
    }

    @Override
    public boolean isOpen() {
        return !records.released() && records.net.isOpen();
    }

    /** Releases the buffers and closes the socket beneath, without {@code close_notify}. */
    @Override
    public void close() throws IOException {
        release();
        records.net.close();
    }

    /**
     * Decrypts one record: into {@code dst} when it has room, else into {@code plainIn}.
     *
     * @return bytes put in {@code dst}; 0 when the record went to {@code plainIn}, carried no data or ended the
     *     stream; -1 when {@code netIn} holds no whole record
     */
    private int unwrapRecord(ByteBuffer dst) throws IOException {
        SSLEngine engine = records.engine();
        ByteBuffer source = records.netIn.readable();
        SSLEngineResult result = engine.unwrap(source, dst);
        int direct = result.bytesProduced();
        if (result.getStatus() == SSLEngineResult.Status.BUFFER_OVERFLOW) {
            ByteBuffer target = records.plainIn.beforeWrite(records.recordCapacity());
            try {
                result = engine.unwrap(source, target);
            } finally {
                records.plainIn.afterWrite();
            }
            direct = 0;
        }
        records.netIn.releaseIfEmpty();
        switch (result.getStatus()) {
            case BUFFER_UNDERFLOW -> {
                records.growForSession();
                return -1;
            }
            case BUFFER_OVERFLOW -> records.growForSession();
            case CLOSED -> inboundDone = true;
            case OK -> refuseNewHandshakes(result.getHandshakeStatus());
        }
        return direct;
    }

    /**
     * Any handshake status after the handshake means the client started something: in TLS 1.2 a renegotiation,
     * refused by failing the read. In TLS 1.3 only a key update gets here, whose answer is sent.
     */
    private void refuseNewHandshakes(HandshakeStatus status) throws IOException {
        if (status == HandshakeStatus.NOT_HANDSHAKING || status == HandshakeStatus.FINISHED) {
            return;
        }
        if (tls13 && status == HandshakeStatus.NEED_WRAP) {
            records.sendEngineOutput();
            return;
        }
        throw new SSLException("Refused a new handshake (" + status + ") on an established connection");
    }

    private int takePlaintext(ByteBuffer dst) {
        ByteBuffer source = records.plainIn.readable();
        int count = Math.min(source.remaining(), dst.remaining());
        dst.put(dst.position(), source, source.position(), count);
        dst.position(dst.position() + count);
        source.position(source.position() + count);
        records.plainIn.releaseIfEmpty();
        return count;
    }

    /** Encrypts what one record holds of {@code src} into {@code netOut}, leaving {@code src}'s position as it was. */
    private void wrapFrom(ByteBuffer src) throws IOException {
        int start = src.position();
        ByteBuffer target = records.netOut.beforeWrite(records.recordCapacity());
        SSLEngineResult result;
        try {
            result = records.engine().wrap(src, target);
        } finally {
            records.netOut.afterWrite();
            unacknowledged = src.position() - start;
            src.position(start);
        }
        switch (result.getStatus()) {
            case OK -> {
                if (result.bytesConsumed() == 0 && result.bytesProduced() == 0) {
                    // Only a handshake the client started stalls the engine; the read that met it fails and closes.
                    throw new SSLException("The connection is renegotiating (" + result.getHandshakeStatus() + ")");
                }
            }
            case BUFFER_OVERFLOW -> records.growForSession();
            case CLOSED -> throw new ClosedChannelException();
            case BUFFER_UNDERFLOW -> throw new SSLException("Unexpected underflow while encrypting");
        }
    }
}
