package io.sprout.boot.tls;

import io.sprout.engine.TlsContext;
import io.sprout.engine.TlsContexts;

import java.util.function.Supplier;

/**
 * The engine's identities, replaced when Boot reloads one of their bundles ({@code reload-on-update}). The engine
 * asks {@link #get()} for every new connection, so a reload reaches new connections at once while open ones keep
 * the certificate they shook hands with. Reloads arrive on Boot's file-watch thread; {@link #get()} reads one
 * volatile field and never blocks.
 */
final class ReloadingContexts implements Supplier<TlsContexts> {

    private volatile TlsContexts current;

    ReloadingContexts(TlsContexts initial) {
        current = initial;
    }

    @Override
    public TlsContexts get() {
        return current;
    }

    /** Replaces the default identity, keeping the server-name ones. */
    synchronized void replaceDefault(TlsContext context) {
        current = new TlsContexts(context, current.byServerName());
    }

    /** Replaces the identity for one server name, keeping the others. */
    synchronized void replace(String serverName, TlsContext context) {
        current = current.withServerName(serverName, context);
    }
}
