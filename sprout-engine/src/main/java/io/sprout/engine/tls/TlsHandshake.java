package io.sprout.engine.tls;

import io.sprout.engine.TlsDetails;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import java.io.EOFException;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;

/**
 * The handshake of one connection, as far as it goes without waiting each time it is advanced: the first record is
 * read and parsed ({@link ClientHelloParser}) without being consumed, which tells plaintext from TLS and picks the
 * certificate by SNI before any engine exists; then the engine gets those same bytes and the two sides exchange
 * records until it is done. Called by the one thread that owns the connection.
 */
final class TlsHandshake {

    private static final System.Logger LOG = System.getLogger(TlsHandshake.class.getName());

    private final ServerTls server;
    private final TlsRecords records;
    private String serverName;

    TlsHandshake(ServerTls server, TlsRecords records) {
        this.server = server;
        this.records = records;
    }

    /** See {@link TlsChannel#handshake()}. */
    HandshakeStep advance() throws IOException {
        if (records.engine() == null) {
            HandshakeStep verdict = readClientHello();
            if (verdict != null) {
                return verdict;
            }
        }
        try {
            return exchangeRecords();
        } catch (SSLException failed) {
            sendAlertQuietly();
            throw failed;
        }
    }

    /** What the completed handshake negotiated. */
    TlsDetails negotiated() {
        records.growForSession();
        return NegotiatedDetails.of(records.engine(), serverName);
    }

    /** Reads until the first record says what the client speaks; {@code null} once an engine has its ClientHello. */
    private HandshakeStep readClientHello() throws IOException {
        while (true) {
            switch (ClientHelloParser.parse(records.netIn.readable())) {
                case FirstBytes.Incomplete incomplete -> {
                    int count = records.readNet();
                    if (count < 0) {
                        throw new EOFException("The client closed before its ClientHello was complete");
                    }
                    if (count == 0) {
                        return HandshakeStep.READ;
                    }
                }
                case FirstBytes.Plaintext plaintext -> {
                    return plaintext.looksLikeHttp() ? HandshakeStep.PLAINTEXT_HTTP : HandshakeStep.NOT_TLS;
                }
                case FirstBytes.Malformed malformed -> {
                    LOG.log(Level.DEBUG, "Not a ClientHello: " + malformed.reason());
                    return HandshakeStep.NOT_TLS;
                }
                case FirstBytes.ClientHello hello -> {
                    serverName = hello.serverName();
                    SSLEngine engine = createEngine(serverName);
                    engine.beginHandshake();
                    records.engine(engine);
                    return null;
                }
            }
        }
    }

    private SSLEngine createEngine(String name) throws SSLException {
        try {
            return server.newEngine(name);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "No TLS context for a connection asking for " + name, e);
            throw new SSLException("No TLS context", e);
        }
    }

    private HandshakeStep exchangeRecords() throws IOException {
        SSLEngine engine = records.engine();
        while (true) {
            if (!records.flush()) {
                return HandshakeStep.WRITE;
            }
            switch (engine.getHandshakeStatus()) {
                case NEED_TASK -> {
                    return HandshakeStep.TASKS;
                }
                case NEED_WRAP -> wrap();
                case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
                    if (!unwrap()) {
                        int count = records.readNet();
                        if (count < 0) {
                            throw new EOFException("The client closed during the handshake");
                        }
                        if (count == 0) {
                            return HandshakeStep.READ;
                        }
                    }
                }
                case FINISHED, NOT_HANDSHAKING -> {
                    return HandshakeStep.DONE;
                }
            }
        }
    }

    /** @return whether a record was processed; {@code false} when more bytes must be read first */
    private boolean unwrap() throws IOException {
        if (!records.netIn.hasRemaining()) {
            return false;
        }
        SSLEngineResult result;
        ByteBuffer target = records.plainIn.beforeWrite(records.recordCapacity());
        try {
            result = records.engine().unwrap(records.netIn.readable(), target);
        } finally {
            records.plainIn.afterWrite();
            records.netIn.releaseIfEmpty();
        }
        return switch (result.getStatus()) {
            case OK -> true;
            case BUFFER_UNDERFLOW -> {
                records.growForSession();
                yield false;
            }
            case BUFFER_OVERFLOW -> {
                records.growForSession();
                yield true;
            }
            case CLOSED -> throw new SSLHandshakeException("The client closed the connection during the handshake");
        };
    }

    private void wrap() throws IOException {
        records.outbound().lock();
        try {
            if (records.wrapEngineOutput().getStatus() == SSLEngineResult.Status.CLOSED) {
                records.flushNet();
                throw new SSLHandshakeException("The handshake failed and the engine closed");
            }
        } finally {
            records.outbound().unlock();
        }
    }

    /** After a failed handshake the engine holds an alert telling the client why: send it if the socket takes it. */
    private void sendAlertQuietly() {
        try {
            records.sendEngineOutput();
        } catch (IOException | RuntimeException alertLost) {
            LOG.log(Level.TRACE, "Alert not sent: " + alertLost);
        }
    }
}
