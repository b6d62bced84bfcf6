package io.sprout.boot.tls;

import java.util.List;

/**
 * The key alias configured for TLS ({@code server.ssl.key-alias}, or an SSL bundle's {@code key.alias}) names no
 * entry of the key store, so the server has no certificate to present. Thrown when the web server is created;
 * Boot's failure report then names the alias and the aliases the store does hold.
 */
public final class MissingKeyAliasException extends IllegalStateException {

    private final String alias;
    private final String source;
    private final List<String> aliases;

    /**
     * @param source where the key store was configured, e.g. {@code SSL bundle 'web'} or {@code server.ssl.*}
     * @param aliases the aliases the key store holds
     * @param cause Boot's own refusal ("Keystore does not contain alias '...'")
     */
    public MissingKeyAliasException(String alias, String source, List<String> aliases, Throwable cause) {
        super("The key store of " + source + " does not contain the key alias '" + alias + "' (it holds "
                + aliases + ")", cause);
        this.alias = alias;
        this.source = source;
        this.aliases = List.copyOf(aliases);
    }

    public String alias() {
        return alias;
    }

    public String source() {
        return source;
    }

    public List<String> aliases() {
        return aliases;
    }
}
