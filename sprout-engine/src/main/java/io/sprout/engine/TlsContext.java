package io.sprout.engine;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import java.util.Arrays;
import java.util.List;

/**
 * One server identity for TLS: an initialised {@link SSLContext} (its key managers hold the certificate, its trust
 * managers judge client certificates) and, optionally, the protocols and cipher suites to enable instead of the
 * context's defaults. Validated on construction: every listed protocol and cipher suite must be one the context
 * supports, so a typo fails at configuration time rather than at the first handshake.
 *
 * @param sslContext an initialised context; each connection gets an engine of its own from it, so the context's
 *     session cache serves resumption
 * @param protocols the protocols to enable, e.g. {@code TLSv1.3}; empty for the context's defaults
 * @param cipherSuites the cipher suites to enable; empty for the context's defaults
 */
public record TlsContext(SSLContext sslContext, List<String> protocols, List<String> cipherSuites) {

    public TlsContext {
        Check.notNull("sslContext", sslContext);
        SSLParameters supported = supportedParameters(sslContext);
        protocols = Check.subsetOf("protocols", protocols, List.of(supported.getProtocols()));
        cipherSuites = Check.subsetOf("cipherSuites", cipherSuites, List.of(supported.getCipherSuites()));
    }

    /** The context with its default protocols and cipher suites. */
    public static TlsContext of(SSLContext sslContext) {
        return new TlsContext(sslContext, List.of(), List.of());
    }

    public TlsContext withProtocols(String... values) {
        return new TlsContext(sslContext, Arrays.asList(values), cipherSuites);
    }

    public TlsContext withCipherSuites(String... values) {
        return new TlsContext(sslContext, protocols, Arrays.asList(values));
    }

    private static SSLParameters supportedParameters(SSLContext context) {
        try {
            return context.getSupportedSSLParameters();
        } catch (IllegalStateException notInitialised) {
            throw new InvalidConfigException("sslContext", context, "an initialised SSLContext");
        }
    }
}
