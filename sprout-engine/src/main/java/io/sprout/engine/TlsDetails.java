package io.sprout.engine;

import java.security.cert.X509Certificate;
import java.util.List;

/**
 * What a TLS connection negotiated, fixed once its handshake completed (the engine refuses renegotiation, so it
 * never changes). The same instance serves every request of the connection; see {@link HttpRequest#tls()}.
 *
 * @param protocol the protocol version, e.g. {@code TLSv1.3}
 * @param cipherSuite the cipher suite's standard name, e.g. {@code TLS_AES_128_GCM_SHA256}
 * @param keySize the strength in bits of the cipher suite's bulk cipher (128 for AES-128, 256 for AES-256 and
 *     ChaCha20), or 0 when the suite is unknown or encrypts nothing
 * @param sessionId the TLS session's identifier in lower-case hex, empty when it has none; under TLS 1.2 the same
 *     for connections that resumed one session, under TLS 1.3 (whose ids are a compatibility relic) new for each
 * @param peerCertificates the client's certificate chain, its own certificate first; empty when it sent none
 * @param applicationProtocol the protocol agreed through ALPN, e.g. {@code http/1.1}, or empty when the client
 *     offered none
 * @param serverName the host name the client asked for with SNI, in lower case, or {@code null} when it sent none
 */
public record TlsDetails(
        String protocol,
        String cipherSuite,
        int keySize,
        String sessionId,
        List<X509Certificate> peerCertificates,
        String applicationProtocol,
        String serverName) {

    public TlsDetails {
        peerCertificates = List.copyOf(peerCertificates);
    }
}
