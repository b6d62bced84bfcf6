package io.sprout.engine.tls;

import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.security.GeneralSecurityException;
import java.security.KeyStore;

/**
 * SSL contexts over the committed test key stores ({@code src/test/resources/tls}; its {@code generate.sh} made
 * them: a test CA, certificates for {@code localhost} and {@code other.test}, a client certificate; never real
 * secrets). Public for the transport ITs in another package.
 */
public final class TestContexts {

    private static final char[] PASSWORD = "changeit".toCharArray();

    private TestContexts() {
    }

    /** The server's context for {@code localhost} and 127.0.0.1, trusting client certificates of the test CA. */
    public static SSLContext localhost() {
        return context(keyManagers("localhost.p12"), trustManagers());
    }

    /** The server's context for {@code other.test}. */
    public static SSLContext other() {
        return context(keyManagers("other.p12"), trustManagers());
    }

    /** A client context that trusts the test CA. */
    public static SSLContext client() {
        return context(null, trustManagers());
    }

    /** A client context that trusts the test CA and presents the test client certificate. */
    public static SSLContext clientWithCertificate() {
        return context(keyManagers("client.p12"), trustManagers());
    }

    private static SSLContext context(KeyManager[] keys, TrustManager[] trust) {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys, trust, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static KeyManager[] keyManagers(String store) {
        try {
            KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            factory.init(load(store), PASSWORD);
            return factory.getKeyManagers();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static TrustManager[] trustManagers() {
        try {
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(load("truststore.p12"));
            return factory.getTrustManagers();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static KeyStore load(String name) {
        try (InputStream in = TestContexts.class.getResourceAsStream("/tls/" + name)) {
            if (in == null) {
                throw new IllegalStateException("No test key store /tls/" + name);
            }
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, PASSWORD);
            return store;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
