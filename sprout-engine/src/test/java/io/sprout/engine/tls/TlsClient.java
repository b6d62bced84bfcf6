package io.sprout.engine.tls;

import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * A client {@link SSLEngine} on the far end of a {@link MemorySocket}, stepped by hand: each {@link #step()} sends
 * what the engine has to send and takes in what the server sent, collecting the plaintext. Single-threaded.
 */
final class TlsClient {

    private final SSLEngine engine;
    private final MemorySocket socket;
    private final ByteBuffer netIn = ByteBuffer.allocate(1 << 20);
    private final ByteBuffer plainIn = ByteBuffer.allocate(1 << 16);
    private final ByteBuffer netOut = ByteBuffer.allocate(1 << 16);
    private final ByteArrayOutputStream received = new ByteArrayOutputStream();
    private ByteBuffer pendingPlaintext = ByteBuffer.allocate(0);

    TlsClient(SSLContext context, MemorySocket socket, String serverName, String protocol, String... alpn)
            throws SSLException {
        this.socket = socket;
        this.engine = context.createSSLEngine(serverName == null ? "localhost" : serverName, 443);
        engine.setUseClientMode(true);
        SSLParameters parameters = engine.getSSLParameters();
        parameters.setServerNames(serverName == null ? List.of() : List.of(new SNIHostName(serverName)));
        parameters.setProtocols(new String[] {protocol});
        if (alpn.length > 0) {
            parameters.setApplicationProtocols(alpn);
        }
        engine.setSSLParameters(parameters);
        engine.beginHandshake();
    }

    SSLEngine engine() {
        return engine;
    }

    /** Queues plaintext to send from the next step on. */
    void send(byte[] plaintext) {
        ByteBuffer more = ByteBuffer.allocate(pendingPlaintext.remaining() + plaintext.length);
        pendingPlaintext = more.put(pendingPlaintext).put(plaintext).flip();
    }

    /** Everything received so far, as text. */
    String received() {
        return received.toString(java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    int receivedLength() {
        return received.size();
    }

    boolean handshaking() {
        SSLEngineResult.HandshakeStatus status = engine.getHandshakeStatus();
        return status != SSLEngineResult.HandshakeStatus.NOT_HANDSHAKING;
    }

    /**
     * Sends what the engine has to send (handshake records, queued plaintext) and takes in what the server sent,
     * until neither makes progress.
     */
    void step() throws SSLException {
        socket.clientReceives(netIn);
        netIn.flip();
        boolean progress;
        do {
            runTasks();
            progress = false;
            if (engine.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NEED_WRAP
                    || pendingPlaintext.hasRemaining()) {
                SSLEngineResult result = engine.wrap(pendingPlaintext, netOut.clear());
                socket.clientSends(netOut.flip());
                progress = result.bytesProduced() > 0;
            }
            runTasks();
            if (netIn.hasRemaining()) {
                SSLEngineResult result = engine.unwrap(netIn, plainIn.clear());
                received.write(plainIn.array(), 0, plainIn.position());
                progress |= result.bytesConsumed() > 0;
            }
        } while (progress);
        netIn.compact();
    }

    private void runTasks() {
        Runnable task;
        while ((task = engine.getDelegatedTask()) != null) {
            task.run();
        }
    }
}
