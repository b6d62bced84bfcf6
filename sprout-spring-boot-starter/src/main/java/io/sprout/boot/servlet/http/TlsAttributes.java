package io.sprout.boot.servlet.http;

import io.sprout.engine.TlsDetails;

import java.security.cert.X509Certificate;
import java.util.function.BiConsumer;

/**
 * The request attributes the Servlet specification (6.1, section 3.10) defines for a request received over TLS,
 * from what the connection's handshake negotiated. The client's certificate chain is present only when the client
 * sent one, as on Tomcat and Jetty, so {@code getAttribute(X509_CERTIFICATE) == null} means "no client certificate".
 */
final class TlsAttributes {

    static final String X509_CERTIFICATE = "jakarta.servlet.request.X509Certificate";
    static final String CIPHER_SUITE = "jakarta.servlet.request.cipher_suite";
    static final String KEY_SIZE = "jakarta.servlet.request.key_size";
    static final String SESSION_ID = "jakarta.servlet.request.ssl_session_id";
    static final String PROTOCOL = "jakarta.servlet.request.secure_protocol";

    private TlsAttributes() {
    }

    /** Hands each attribute that has a value to {@code set}; nothing for a plaintext request ({@code null}). */
    static void apply(TlsDetails tls, BiConsumer<String, Object> set) {
        if (tls == null) {
            return;
        }
        set.accept(CIPHER_SUITE, tls.cipherSuite());
        set.accept(KEY_SIZE, tls.keySize());
        set.accept(PROTOCOL, tls.protocol());
        if (!tls.sessionId().isEmpty()) {
            set.accept(SESSION_ID, tls.sessionId());
        }
        if (!tls.peerCertificates().isEmpty()) {
            set.accept(X509_CERTIFICATE, tls.peerCertificates().toArray(X509Certificate[]::new));
        }
    }
}
