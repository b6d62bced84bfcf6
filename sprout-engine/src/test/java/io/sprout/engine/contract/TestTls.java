package io.sprout.engine.contract;

import io.sprout.engine.ClientAuth;
import io.sprout.engine.ServerConfig;
import io.sprout.engine.TlsConfig;
import io.sprout.engine.TlsContext;
import io.sprout.engine.TlsContexts;
import io.sprout.engine.tls.TestContexts;

import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.util.List;
import java.util.function.UnaryOperator;

/** The TLS side of the engine's ITs: server configurations and clients over {@link TestContexts}. */
final class TestTls {

    static final String OTHER_NAME = "other.test";

    private TestTls() {
    }

    /** The server's context for {@code localhost}. */
    static SSLContext localhost() {
        return TestContexts.localhost();
    }

    /** The server's context for {@code other.test}. */
    static SSLContext other() {
        return TestContexts.other();
    }

    /** A TLS configuration with the {@code localhost} certificate. */
    static TlsConfig config() {
        return TlsConfig.of(localhost());
    }

    /** A server customizer: TLS with the {@code localhost} certificate, then {@code more}. */
    static UnaryOperator<ServerConfig.Builder> https(UnaryOperator<TlsConfig> more) {
        return builder -> builder.tls(more.apply(config()));
    }

    static UnaryOperator<ServerConfig.Builder> https() {
        return https(UnaryOperator.identity());
    }

    /** The default certificate plus {@code other.test} by SNI. */
    static TlsConfig withOtherName() {
        return TlsConfig.of(TlsContexts.of(localhost()).withServerName(OTHER_NAME, TlsContext.of(other())));
    }

    static TlsConfig needClientCertificates() {
        return config().withClientAuth(ClientAuth.NEED);
    }

    /** A client context that trusts the test CA. */
    static SSLContext client() {
        return TestContexts.client();
    }

    /** A client context that trusts the test CA and presents the test client certificate. */
    static SSLContext clientWithCertificate() {
        return TestContexts.clientWithCertificate();
    }

    /** A connected, not yet handshaken socket, asking for {@code serverName} by SNI unless it is {@code null}. */
    static SSLSocket socket(SSLContext context, int port, String serverName, String... protocols) {
        try {
            SSLSocket socket = (SSLSocket) context.getSocketFactory()
                    .createSocket(InetAddress.getLoopbackAddress(), port);
            SSLParameters parameters = socket.getSSLParameters();
            parameters.setServerNames(serverName == null ? List.of() : List.of(new SNIHostName(serverName)));
            if (protocols.length > 0) {
                parameters.setProtocols(protocols);
            }
            socket.setSSLParameters(parameters);
            socket.setSoTimeout(20_000);
            return socket;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A raw client over a handshaken TLS socket to {@code localhost}. */
    static RawClient connect(int port) {
        return RawClient.over(handshaken(socket(client(), port, "localhost")));
    }

    static SSLSocket handshaken(SSLSocket socket) {
        try {
            socket.startHandshake();
            return socket;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The bytes of a client's first flight (its ClientHello record), as a TLS client would send them. */
    static byte[] clientHello(String serverName) {
        try {
            SSLEngine engine = client().createSSLEngine(serverName, 443);
            engine.setUseClientMode(true);
            java.nio.ByteBuffer out = java.nio.ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
            engine.wrap(java.nio.ByteBuffer.allocate(0), out);
            return java.util.Arrays.copyOf(out.array(), out.position());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Opens a plain socket, for clients that speak bytes of their own choosing to a TLS port. */
    static Socket plainSocket(int port) {
        try {
            Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);
            socket.setSoTimeout(20_000);
            return socket;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
