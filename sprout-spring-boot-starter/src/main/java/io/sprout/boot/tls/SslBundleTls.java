package io.sprout.boot.tls;

import io.sprout.engine.ClientAuth;
import io.sprout.engine.InvalidConfigException;
import io.sprout.engine.TlsConfig;
import io.sprout.engine.TlsContext;
import io.sprout.engine.TlsContexts;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.boot.web.server.Ssl;
import org.springframework.boot.web.server.WebServerSslBundle;
import org.springframework.util.StringUtils;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Builds the engine's {@link TlsConfig} from Boot's {@link Ssl} ({@code server.ssl.*}) and {@link SslBundles}, as
 * Boot's own servers read them: the default identity from {@link WebServerSslBundle#get} (a named bundle, or the
 * key store, PEM certificate and trust store properties), one more per {@code server.ssl.server-name-bundles}
 * entry for SNI, and {@code server.ssl.client-auth}. Every named bundle gets an update handler, so a bundle with
 * {@code reload-on-update} swaps its certificate for new connections without a restart.
 */
public final class SslBundleTls {

    private static final Log logger = LogFactory.getLog(SslBundleTls.class);

    private SslBundleTls() {
    }

    /**
     * Called on the thread creating the web server; reads every key store now, so bad key material fails here.
     *
     * @param ssl enabled SSL settings
     * @param bundles the application's bundles, or {@code null} when it names none
     * @throws MissingKeyAliasException when a key alias is not in its key store
     * @throws org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException
     *     naming the property when a protocol, cipher suite or server name is not one the JDK or DNS allows
     */
    public static TlsConfig tlsConfig(Ssl ssl, SslBundles bundles, Duration handshakeTimeout) {
        String defaultBundle = StringUtils.hasText(ssl.getBundle()) ? ssl.getBundle() : null;
        TlsContext defaultContext = BundleContext.of(WebServerSslBundle.get(ssl, bundles), defaultBundle);
        Map<String, TlsContext> byServerName = new HashMap<>();
        for (Ssl.ServerNameSslBundle entry : ssl.getServerNameBundles()) {
            byServerName.put(entry.serverName(),
                    BundleContext.of(required(bundles, entry.bundle()).getBundle(entry.bundle()), entry.bundle()));
        }
        ReloadingContexts contexts = new ReloadingContexts(serverNames(defaultContext, byServerName));
        if (defaultBundle != null) {
            onUpdate(bundles, defaultBundle, contexts::replaceDefault);
        }
        for (Ssl.ServerNameSslBundle entry : ssl.getServerNameBundles()) {
            onUpdate(bundles, entry.bundle(), context -> contexts.replace(entry.serverName(), context));
        }
        ClientAuth clientAuth = Ssl.ClientAuth.map(ssl.getClientAuth(), ClientAuth.NONE, ClientAuth.WANT,
                ClientAuth.NEED);
        return new TlsConfig(contexts, clientAuth, handshakeTimeout);
    }

    private static TlsContexts serverNames(TlsContext defaultContext, Map<String, TlsContext> byServerName) {
        try {
            return new TlsContexts(defaultContext, byServerName);
        } catch (InvalidConfigException e) {
            throw new InvalidConfigurationPropertyValueException("server.ssl.server-name-bundles", e.value(),
                    "every server-name must be a host name or a one-level wildcard such as *.example.com", e);
        }
    }

    /**
     * A reloaded bundle that cannot serve (say its new key store lacks the alias) leaves the identity in place:
     * serving the last good certificate beats failing every new connection.
     */
    private static void onUpdate(SslBundles bundles, String bundleName, Consumer<TlsContext> replace) {
        required(bundles, bundleName).addBundleUpdateHandler(bundleName, bundle -> {
            try {
                replace.accept(BundleContext.of(bundle, bundleName));
                logger.info("Sprout reloaded SSL bundle '" + bundleName + "': new connections get its certificate");
            } catch (RuntimeException e) {
                logger.error("Sprout could not use the reloaded SSL bundle '" + bundleName
                        + "' and keeps serving its previous certificate", e);
            }
        });
    }

    private static SslBundles required(SslBundles bundles, String bundleName) {
        if (bundles == null) {
            throw new IllegalStateException("SSL bundle '" + bundleName + "' was requested but no SslBundles "
                    + "instance was provided");
        }
        return bundles;
    }
}
