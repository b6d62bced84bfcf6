package io.sprout.engine.tls;

import io.sprout.engine.TlsDetails;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * What a finished handshake tells the application ({@link TlsDetails}), read from the engine once, so the exchange
 * never touches the {@link SSLSession} again. Runs once per connection, after the handshake: off the request path.
 */
final class NegotiatedDetails {

    private NegotiatedDetails() {
    }

    /** @param serverName the host name the ClientHello asked for, or {@code null} */
    static TlsDetails of(SSLEngine engine, String serverName) {
        SSLSession session = engine.getSession();
        return new TlsDetails(session.getProtocol(), session.getCipherSuite(),
                CipherStrength.keySize(session.getCipherSuite()), HexFormat.of().formatHex(session.getId()),
                peerCertificates(session), Objects.requireNonNullElse(engine.getApplicationProtocol(), ""),
                serverName);
    }

    /** The client's X.509 chain; none when it sent no certificate (client authentication off or only wanted). */
    private static List<X509Certificate> peerCertificates(SSLSession session) {
        try {
            List<X509Certificate> chain = new ArrayList<>();
            for (Certificate certificate : session.getPeerCertificates()) {
                if (certificate instanceof X509Certificate x509) {
                    chain.add(x509);
                }
            }
            return chain;
        } catch (SSLPeerUnverifiedException noCertificate) {
            return List.of();
        }
    }
}
