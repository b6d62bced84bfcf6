package io.sprout.engine;

import javax.net.ssl.SSLContext;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The identities a TLS server presents: a default one and, optionally, one per server name a client asks for with
 * SNI. The engine picks one per connection from the ClientHello: an exact name first, then a wildcard one level up
 * ({@code *.example.com} for {@code api.example.com}), then the default, which also serves clients that send no
 * name. Names are matched without regard to case.
 *
 * @param defaultContext the identity for clients without a server name, or with one not listed
 * @param byServerName identities by host name ({@code example.com}) or one-level wildcard ({@code *.example.com})
 */
public record TlsContexts(TlsContext defaultContext, Map<String, TlsContext> byServerName) {

    private static final Pattern HOST_NAME = Pattern.compile(
            "(\\*\\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*");

    public TlsContexts {
        Check.notNull("defaultContext", defaultContext);
        Check.notNull("byServerName", byServerName);
        Map<String, TlsContext> normalised = new HashMap<>();
        for (Map.Entry<String, TlsContext> entry : byServerName.entrySet()) {
            String name = entry.getKey() == null ? null : entry.getKey().toLowerCase(Locale.ROOT);
            if (name == null || name.length() > 253 || !HOST_NAME.matcher(name).matches()) {
                throw new InvalidConfigException("byServerName", entry.getKey(),
                        "keyed by host names or one-level wildcards such as *.example.com");
            }
            if (entry.getValue() == null || normalised.put(name, entry.getValue()) != null) {
                throw new InvalidConfigException("byServerName", entry.getKey(),
                        "keyed by distinct names, each with a context");
            }
        }
        byServerName = Map.copyOf(normalised);
    }

    /** One identity for every client. */
    public static TlsContexts of(SSLContext sslContext) {
        return new TlsContexts(TlsContext.of(sslContext), Map.of());
    }

    /** These identities plus {@code context} for {@code serverName} (a host name or a {@code *.} wildcard). */
    public TlsContexts withServerName(String serverName, TlsContext context) {
        Map<String, TlsContext> more = new HashMap<>(byServerName);
        more.put(serverName, context);
        return new TlsContexts(defaultContext, more);
    }

    /**
     * The identity for a client that asked for {@code serverName}, or the default for {@code null}. Called on an
     * event loop for each new connection; never blocks.
     */
    public TlsContext forServerName(String serverName) {
        if (serverName == null || byServerName.isEmpty()) {
            return defaultContext;
        }
        String name = serverName.toLowerCase(Locale.ROOT);
        TlsContext exact = byServerName.get(name);
        if (exact != null) {
            return exact;
        }
        int dot = name.indexOf('.');
        TlsContext wildcard = dot < 0 ? null : byServerName.get("*" + name.substring(dot));
        return wildcard != null ? wildcard : defaultContext;
    }
}
