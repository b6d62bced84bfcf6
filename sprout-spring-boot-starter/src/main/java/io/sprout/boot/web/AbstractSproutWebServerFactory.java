package io.sprout.boot.web;

import io.sprout.boot.compression.CompressionPolicy;
import io.sprout.boot.stats.WebSocketStats;
import io.sprout.boot.tls.SslBundleTls;
import io.sprout.engine.Http2Config;
import io.sprout.engine.ServerConfig;
import io.sprout.engine.TlsConfig;
import io.sprout.engine.WebSocketConfig;
import org.springframework.boot.web.server.AbstractConfigurableWebServerFactory;
import org.springframework.boot.web.server.Compression;
import org.springframework.boot.web.server.Ssl;
import org.springframework.boot.web.server.WebServer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What Sprout's servlet and reactive web server factories share: the engine configuration, built from Boot's
 * {@code server.*} (port, address, server header, SSL and SSL bundles, HTTP/2) and Sprout's options, with
 * {@link SproutServerConfigCustomizer}s last. TLS comes from Boot's {@code server.ssl.*} and SSL bundles (see
 * {@link SslBundleTls}): every port, the main one and the additional ones, then speaks {@code https}. Boot's
 * {@code server.http2.enabled} adds HTTP/2 next to HTTP/1.1 on every port (see {@link #setHttp2Config}): {@code h2}
 * by ALPN over TLS, {@code h2c} by prior knowledge or {@code Upgrade} in plaintext.
 */
public abstract class AbstractSproutWebServerFactory extends AbstractConfigurableWebServerFactory {

    private final List<SproutServerConfigCustomizer> configCustomizers = new ArrayList<>();
    private final List<Integer> additionalPorts = new ArrayList<>();
    private final WebSocketStats webSocketStats = new WebSocketStats();
    private ServerConfig serverConfig;
    private int maxHttpRequestHeaderSize = -1;
    private Duration tlsHandshakeTimeout = TlsConfig.DEFAULT_HANDSHAKE_TIMEOUT;
    private Http2Config http2Config;
    private WebSocketConfig webSocketConfig = WebSocketConfig.DEFAULT;
    private WarmUp warmUp;
    private boolean useForwardHeaders;

    /** With the engine's default options. */
    protected AbstractSproutWebServerFactory() {
        this(ServerConfig.builder().build());
    }

    /** With the engine's default options. */
    protected AbstractSproutWebServerFactory(int port) {
        this(port, ServerConfig.builder().build());
    }

    /** @param defaults the engine options until {@link #setServerConfig} replaces them */
    protected AbstractSproutWebServerFactory(ServerConfig defaults) {
        this.serverConfig = defaults;
    }

    /** @param defaults the engine options until {@link #setServerConfig} replaces them */
    protected AbstractSproutWebServerFactory(int port, ServerConfig defaults) {
        super(port);
        this.serverConfig = defaults;
    }

    /**
     * The engine options; port, additional ports, address, server header and header size limit are overridden by
     * this factory.
     */
    public void setServerConfig(ServerConfig serverConfig) {
        this.serverConfig = serverConfig;
    }

    public ServerConfig getServerConfig() {
        return serverConfig;
    }

    public void addServerConfigCustomizers(SproutServerConfigCustomizer... customizers) {
        configCustomizers.addAll(Arrays.asList(customizers));
    }

    public List<SproutServerConfigCustomizer> getServerConfigCustomizers() {
        return configCustomizers;
    }

    /**
     * Listens on these ports too, with the same address, application and engine (what Tomcat users do with
     * {@code addAdditionalTomcatConnectors}); 0 picks a free port. A port that cannot be bound fails
     * {@link WebServer#start()} with Boot's {@code PortInUseException} naming it, and the started line lists every
     * port. Boot's {@code local.server.port} and {@link WebServer#getPort()} stay the main port;
     * {@link SproutWebServer#getPorts()} has them all.
     */
    public void addAdditionalPorts(int... ports) {
        for (int port : ports) {
            additionalPorts.add(port);
        }
    }

    /** Replaces the additional ports (see {@link #addAdditionalPorts}). */
    public void setAdditionalPorts(Collection<Integer> ports) {
        additionalPorts.clear();
        additionalPorts.addAll(ports);
    }

    public List<Integer> getAdditionalPorts() {
        return List.copyOf(additionalPorts);
    }

    /** {@code server.max-http-request-header-size} in bytes; -1 keeps the engine's limit. */
    public void setMaxHttpRequestHeaderSize(int bytes) {
        maxHttpRequestHeaderSize = bytes;
    }

    /**
     * The HTTP/2 settings and rate controls ({@code sprout.server.http2.*}) the server uses when Boot's
     * {@code server.http2.enabled} is {@code true}; {@code null} (the default) for {@link Http2Config#DEFAULT} with
     * the header list limited as the HTTP/1.1 header section is ({@code server.max-http-request-header-size}).
     * With HTTP/2 off the engine configuration's own {@code http2} stands: {@code null}, HTTP/1.1 only, unless a
     * {@link SproutServerConfigCustomizer} or {@link #setServerConfig} set one.
     */
    public void setHttp2Config(Http2Config http2Config) {
        this.http2Config = http2Config;
    }

    public Http2Config getHttp2Config() {
        return http2Config;
    }

    /**
     * The limits of WebSocket connections ({@code sprout.server.websocket.*}): the Jakarta WebSocket container's
     * defaults on the servlet factory, every session's on the reactive one.
     */
    public void setWebSocketConfig(WebSocketConfig webSocketConfig) {
        this.webSocketConfig = webSocketConfig;
    }

    public WebSocketConfig getWebSocketConfig() {
        return webSocketConfig;
    }

    /**
     * Where the WebSocket sessions of this factory's servers are counted, by the Jakarta container on the servlet
     * factory or by WebFlux's sessions on the reactive one; the {@code sprout.websocket.*} meters read it.
     */
    public WebSocketStats getWebSocketStats() {
        return webSocketStats;
    }

    /**
     * Requests to serve through the whole stack before the ports open ({@code sprout.server.warm-up.*}), so the JIT
     * has compiled the hot path before the first client arrives; {@code null} (the default) for none.
     */
    public void setWarmUp(WarmUp warmUp) {
        this.warmUp = warmUp;
    }

    public WarmUp getWarmUp() {
        return warmUp;
    }

    /**
     * Honour a trusted proxy's {@code Forwarded} / {@code X-Forwarded-*} headers
     * ({@code server.forward-headers-strategy=native}): the Servlet request's scheme, server name, port and remote
     * address, the WebFlux request's URI and remote address. Off by default, when the headers reach the
     * application untouched (for Spring's own filter, {@code framework}).
     */
    public void setUseForwardHeaders(boolean useForwardHeaders) {
        this.useForwardHeaders = useForwardHeaders;
    }

    public boolean isUseForwardHeaders() {
        return useForwardHeaders;
    }

    /**
     * How long a TLS client may take from connecting to a completed handshake before it is closed
     * ({@code sprout.server.tls-handshake-timeout}, default 10 s); used when {@code server.ssl} is enabled.
     */
    public void setTlsHandshakeTimeout(Duration timeout) {
        this.tlsHandshakeTimeout = timeout;
    }

    public Duration getTlsHandshakeTimeout() {
        return tlsHandshakeTimeout;
    }

    /**
     * The engine configuration for a new server: TLS is built here from {@code server.ssl.*} (reading the key
     * stores, so bad key material fails {@code getWebServer}) and HTTP/2 from {@code server.http2.enabled}, before
     * the {@link SproutServerConfigCustomizer}s, which may still replace them.
     */
    ServerConfig engineConfig() {
        ServerConfig.Builder builder = serverConfig.toBuilder()
                .port(getPort())
                .additionalPorts(additionalPorts)
                .address(getAddress())
                .serverHeader(getServerHeader());
        if (Ssl.isEnabled(getSsl())) {
            builder.tls(SslBundleTls.tlsConfig(getSsl(), getSslBundles(), tlsHandshakeTimeout));
        }
        int headerSectionSize = maxHttpRequestHeaderSize > 0 ? maxHttpRequestHeaderSize
                : serverConfig.limits().maxHeaderSectionSize();
        builder.limits(serverConfig.limits().withMaxHeaderSectionSize(headerSectionSize));
        if (getHttp2() != null && getHttp2().isEnabled()) {
            builder.http2(http2Config != null ? http2Config
                    : Http2Config.DEFAULT.withMaxHeaderListSize(headerSectionSize));
        }
        configCustomizers.forEach(customizer -> customizer.customize(builder));
        return builder.build();
    }

    /** {@code server.compression.*} as a policy; {@code null} when compression is off. */
    CompressionPolicy compressionPolicy() {
        Compression compression = getCompression();
        if (compression == null || !compression.getEnabled()) {
            return null;
        }
        List<Pattern> excluded = new ArrayList<>();
        if (compression.getExcludedUserAgents() != null) {
            for (String agent : compression.getExcludedUserAgents()) {
                excluded.add(Pattern.compile(agent));
            }
        }
        return new CompressionPolicy(compression.getMinResponseSize().toBytes(),
                List.of(compression.getAllMimeTypes()), excluded);
    }
}
