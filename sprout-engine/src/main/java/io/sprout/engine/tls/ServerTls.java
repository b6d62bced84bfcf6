package io.sprout.engine.tls;

import io.sprout.engine.TlsConfig;
import io.sprout.engine.TlsContext;
import io.sprout.engine.TlsContexts;
import io.sprout.engine.buffer.BufferPool;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import java.nio.channels.ByteChannel;
import java.time.Duration;
import java.util.List;

/**
 * The TLS side of one server: its configuration, the pool of record-sized buffers its connections lease, and the
 * application protocols it can serve. Creates each connection's {@link TlsChannel} and, once that connection's
 * ClientHello is in, its {@link SSLEngine}, from whatever {@link TlsConfig#contexts()} returns at that moment.
 * Thread-safe.
 *
 * <p>Public because the server package's {@code EngineServer} starts one per server and transport makes each connection's
 * {@link TlsChannel} from it.
 */
public final class ServerTls {

    /** The ALPN name of HTTP/1.1, the one protocol the engine serves today. */
    public static final String HTTP_1_1 = "http/1.1";
    public static final String H2 = "h2";

    private final TlsConfig config;
    private final AlpnChoice alpn;
    private final BufferPool pool;

    private ServerTls(TlsConfig config, AlpnChoice alpn, BufferPool pool) {
        this.config = config;
        this.alpn = alpn;
        this.pool = pool;
    }

    /**
     * Checks that the configured contexts can be had and sizes the record buffers after them.
     *
     * @param servedProtocols the ALPN protocols the server can hand a connection to, most preferred first; HTTP/2
     *     ({@link #H2} before {@link #HTTP_1_1} when the server speaks HTTP/2)
     * @param poolCapacity idle record buffers the pool keeps
     * @throws IllegalStateException when the contexts supplier fails or returns nothing
     */
    public static ServerTls start(TlsConfig config, List<String> servedProtocols, int poolCapacity) {
        TlsContexts contexts;
        try {
            contexts = currentContexts(config);
        } catch (RuntimeException e) {
            throw new IllegalStateException("The TLS contexts could not be had", e);
        }
        SSLEngine probe = contexts.defaultContext().sslContext().createSSLEngine();
        int recordSize = Math.max(probe.getSession().getPacketBufferSize(),
                probe.getSession().getApplicationBufferSize());
        return new ServerTls(config, new AlpnChoice(servedProtocols), new BufferPool(recordSize, poolCapacity));
    }

    /** The TLS layer for one new connection whose encrypted bytes move through {@code net}. */
    public TlsChannel newChannel(ByteChannel net) {
        return new TlsChannel(this, net);
    }

    public Duration handshakeTimeout() {
        return config.handshakeTimeout();
    }

    /** The record buffers' pool, whose {@link BufferPool#leased()} counts towards the server's leak gauge. */
    public BufferPool pool() {
        return pool;
    }

    /** A server-mode engine for a client that asked for {@code serverName} ({@code null}: none). */
    SSLEngine newEngine(String serverName) {
        TlsContext identity = currentContexts(config).forServerName(serverName);
        SSLEngine engine = identity.sslContext().createSSLEngine();
        engine.setUseClientMode(false);
        SSLParameters parameters = engine.getSSLParameters();
        if (!identity.protocols().isEmpty()) {
            parameters.setProtocols(identity.protocols().toArray(String[]::new));
        }
        if (!identity.cipherSuites().isEmpty()) {
            parameters.setCipherSuites(identity.cipherSuites().toArray(String[]::new));
        }
        switch (config.clientAuth()) {
            case NONE -> parameters.setNeedClientAuth(false);
            case WANT -> parameters.setWantClientAuth(true);
            case NEED -> parameters.setNeedClientAuth(true);
        }
        engine.setSSLParameters(parameters);
        engine.setHandshakeApplicationProtocolSelector((ignored, offered) -> alpn.select(offered));
        return engine;
    }

    private static TlsContexts currentContexts(TlsConfig config) {
        TlsContexts contexts = config.contexts().get();
        if (contexts == null) {
            throw new IllegalStateException("The TLS contexts supplier returned null");
        }
        return contexts;
    }
}
