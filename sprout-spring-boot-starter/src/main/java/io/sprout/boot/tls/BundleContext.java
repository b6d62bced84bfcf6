package io.sprout.boot.tls;

import io.sprout.engine.InvalidConfigException;
import io.sprout.engine.TlsContext;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
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
     * @param bundleName the bundle's name, or {@code null} for one built from {@code server.ssl.*} properties
     * @throws MissingKeyAliasException when the bundle's key alias is not in its key store
     * @throws InvalidConfigurationPropertyValueException naming the property when a protocol or cipher suite is
     *     unknown to the JDK
     */
    static TlsContext of(SslBundle bundle, String bundleName) {
        assertContainsAlias(bundle, bundleName);
        SslOptions options = bundle.getOptions();
        try {
            return new TlsContext(bundle.createSslContext(), list(options.getEnabledProtocols()),
                    list(options.getCiphers()));
        } catch (InvalidConfigException e) {
            throw new InvalidConfigurationPropertyValueException(property(e.field(), bundleName), e.value(),
                    "the value must be " + e.allowed() + " but was " + e.value(), e);
        }
    }

    /**
     * The property behind a protocol or cipher suite the JDK does not offer: the engine's message names its own
     * field, which no user ever set.
     */
    private static String property(String field, String bundleName) {
        String option = field.equals("protocols") ? "enabled-protocols" : "ciphers";
        return bundleName == null ? "server.ssl." + option
                : "spring.ssl.bundle.*." + bundleName + ".options." + option;
    }

    /**
     * Checked before the context is built, as Boot's Jetty server checks at start: the key managers would refuse
     * it too, but with a message naming neither the bundle nor the aliases there are.
     */
    private static void assertContainsAlias(SslBundle bundle, String bundleName) {
        SslBundleKey key = bundle.getKey();
        KeyStore keyStore = bundle.getStores().getKeyStore();
        try {
            key.assertContainsAlias(keyStore);
        } catch (IllegalStateException e) {
            throw new MissingKeyAliasException(key.getAlias(), bundleName, aliases(keyStore), e);
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
