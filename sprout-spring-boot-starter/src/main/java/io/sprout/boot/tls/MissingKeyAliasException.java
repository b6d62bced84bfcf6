package io.sprout.boot.tls;

import java.util.List;

/**
 * The key alias configured for TLS ({@code server.ssl.key-alias}, or an SSL bundle's {@code key.alias}) names no
 * entry of the key store, so the server has no certificate to present. Thrown when the web server is created;
 * Boot's failure report then names the alias and the aliases the store does hold.
 */
public final class MissingKeyAliasException extends IllegalStateException {

    private final String alias;
    private final String bundleName;
    private final List<String> aliases;

    /**
     * @param bundleName the SSL bundle the key store belongs to, or {@code null} for {@code server.ssl.*}
     * @param aliases the aliases the key store holds
     * @param cause Boot's own refusal ("Keystore does not contain alias '...'")
     */
    public MissingKeyAliasException(String alias, String bundleName, List<String> aliases, Throwable cause) {
        super("The key store of " + describe(bundleName) + " does not contain the key alias '" + alias
                + "' (it holds " + aliases + ")", cause);
        this.alias = alias;
        this.bundleName = bundleName;
        this.aliases = List.copyOf(aliases);
    }

    private static String describe(String bundleName) {
        return bundleName == null ? "server.ssl.*" : "SSL bundle '" + bundleName + "'";
    }

    public String alias() {
        return alias;
    }

    /** The SSL bundle, or {@code null} when the key store came from {@code server.ssl.*} properties. */
    public String bundleName() {
        return bundleName;
    }

    /** Where the key store was configured: {@code server.ssl.*} or {@code SSL bundle 'web'}. */
    public String source() {
        return describe(bundleName);
    }

    public List<String> aliases() {
        return aliases;
    }
}
