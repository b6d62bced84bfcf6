package io.sprout.engine;

import javax.net.ssl.SSLContext;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * TLS for a server ({@link ServerConfig#tls()}): where the certificates come from, whether clients must present
 * one, and how long a handshake may take.
 *
 * <p><b>Reload.</b> {@link #contexts()} is asked once per new connection, when its ClientHello has arrived, on the
 * connection's event loop (in either execution mode), so it must be cheap and must not block: return a value held in
 * a field that a reload replaces. New connections then get the new certificates while open ones keep theirs. A
 * supplier that throws fails only that connection (closed, logged at WARNING); it is also asked once when the server
 * starts, which then fails instead.
 *
 * @param contexts the identities to present, asked for each new connection
 * @param clientAuth whether clients are asked for a certificate (default {@link ClientAuth#NONE})
 * @param handshakeTimeout the longest a connection may take from its accept to a completed handshake (default
 *     10 s); a client that sends nothing, or half a ClientHello, is then closed
 */
public record TlsConfig(Supplier<TlsContexts> contexts, ClientAuth clientAuth, Duration handshakeTimeout) {

    public static final Duration DEFAULT_HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);

    public TlsConfig {
        Check.notNull("contexts", contexts);
        Check.notNull("clientAuth", clientAuth);
        Check.positive("handshakeTimeout", handshakeTimeout);
    }

    /** One fixed identity, no client authentication, the default handshake timeout. */
    public static TlsConfig of(SSLContext sslContext) {
        return of(TlsContexts.of(sslContext));
    }

    /** Fixed identities, no client authentication, the default handshake timeout. */
    public static TlsConfig of(TlsContexts contexts) {
        Check.notNull("contexts", contexts);
        return new TlsConfig(() -> contexts, ClientAuth.NONE, DEFAULT_HANDSHAKE_TIMEOUT);
    }

    /** Identities that may change while the server runs (see the class comment on reload). */
    public static TlsConfig reloading(Supplier<TlsContexts> contexts) {
        return new TlsConfig(contexts, ClientAuth.NONE, DEFAULT_HANDSHAKE_TIMEOUT);
    }

    public TlsConfig withClientAuth(ClientAuth value) {
        return new TlsConfig(contexts, value, handshakeTimeout);
    }

    public TlsConfig withHandshakeTimeout(Duration value) {
        return new TlsConfig(contexts, clientAuth, value);
    }
}
