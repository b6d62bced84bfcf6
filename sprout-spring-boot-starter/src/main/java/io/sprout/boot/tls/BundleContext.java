package io.sprout.boot.tls;

import io.sprout.engine.TlsContext;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundleKey;
import org.springframework.boot.ssl.SslOptions;

import java.security.KeyStore;
import java.security.KeyStoreException;
import java.util.Collections;
import java.util.List;

/**
 * One SSL bundle as one engine identity, the way Boot's Tomcat and Netty servers read a bundle: the bundle's own
 * {@code SSLContext} (its protocol, its key managers, which pick the key alias, and its trust managers, which judge
 * client certificates), with the bundle's enabled protocols and cipher suites, if any.
 */
final class BundleContext {

    private BundleContext() {
    }

    /**
     * @param source where the bundle was configured, for the failure message
     * @throws MissingKeyAliasException when the bundle's key alias is not in its key store
     */
    static TlsContext of(SslBundle bundle, String source) {
        assertContainsAlias(bundle, source);
        SslOptions options = bundle.getOptions();
        return new TlsContext(bundle.createSslContext(), list(options.getEnabledProtocols()),
                list(options.getCiphers()));
    }

    /**
     * Checked before the context is built, as Boot's Jetty server checks at start: the key managers would refuse
     * it too, but with a message naming neither the bundle nor the aliases there are.
     */
    private static void assertContainsAlias(SslBundle bundle, String source) {
        SslBundleKey key = bundle.getKey();
        KeyStore keyStore = bundle.getStores().getKeyStore();
        try {
            key.assertContainsAlias(keyStore);
        } catch (IllegalStateException e) {
            throw new MissingKeyAliasException(key.getAlias(), source, aliases(keyStore), e);
        }
    }

    private static List<String> aliases(KeyStore keyStore) {
        try {
            return Collections.list(keyStore.aliases()).stream().sorted().toList();
        } catch (KeyStoreException e) {
            // Only an uninitialised store fails here, and the alias check has just read it.
            return List.of();
        }
    }

    private static List<String> list(String[] values) {
        return values == null ? List.of() : List.of(values);
    }
}
