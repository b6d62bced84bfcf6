package io.sprout.boot.autoconfigure;

import io.sprout.boot.servlet.AccessLog;
import io.sprout.boot.web.AbstractSproutWebServerFactory;
import io.sprout.boot.web.SproutServletWebServerFactory;
import io.sprout.boot.web.WarmUp;
import io.sprout.engine.Http2Config;
import io.sprout.engine.InvalidConfigException;
import io.sprout.engine.MinDataRates;
import io.sprout.engine.ServerConfig;
import io.sprout.engine.ThreadType;
import io.sprout.engine.WebSocketConfig;
import org.springframework.boot.cloud.CloudPlatform;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.thread.Threading;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.server.autoconfigure.ServerProperties;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.util.unit.DataSize;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Applies {@code sprout.server.*} and the {@code server.*} properties Boot does not map for every server
 * ({@code max-http-request-header-size}, {@code forward-headers-strategy=native}) to the factory, and
 * {@code sprout.server.http2.*} when Boot's customizer has enabled HTTP/2 ({@code server.http2.enabled}). Runs after
 * Boot's own servlet customizer. Values the engine rejects fail start-up with an
 * {@link InvalidConfigurationPropertyValueException} naming the property and the allowed range: the engine's
 * {@link InvalidConfigException} says which config field was bad, and an explicit table which property set it.
 */
public final class SproutWebServerFactoryCustomizer
        implements WebServerFactoryCustomizer<AbstractSproutWebServerFactory>, Ordered {

    /**
     * The engine config fields this customizer sets, by {@link InvalidConfigException#field()} (the record component
     * names of {@code ServerConfig}, {@code HttpLimits}, {@code Timeouts} and {@code MinDataRates}), to the property
     * each comes from.
     */
    static final Map<String, String> PROPERTIES = Map.ofEntries(
            Map.entry("executionMode", "sprout.server.execution-mode"),
            Map.entry("threadType", "sprout.server.thread-type"),
            Map.entry("threadPoolSize", "sprout.server.thread-pool-size"),
            Map.entry("workerQueueCapacity", "sprout.server.worker-queue-capacity"),
            Map.entry("selectorThreads", "sprout.server.selector-threads"),
            Map.entry("acceptBacklog", "sprout.server.accept-backlog"),
            Map.entry("socketSendBuffer", "sprout.server.socket-send-buffer"),
            Map.entry("maxConnections", "sprout.server.max-connections"),
            Map.entry("maxKeepAliveRequests", "sprout.server.max-keep-alive-requests"),
            Map.entry("bufferSize", "sprout.server.buffer-size"),
            Map.entry("bufferPoolCapacity", "sprout.server.buffer-pool-capacity"),
            Map.entry("maxRequestLineLength", "sprout.server.max-request-line-length"),
            Map.entry("maxHeaderSectionSize", "server.max-http-request-header-size"),
            Map.entry("maxHeaderCount", "sprout.server.max-header-count"),
            Map.entry("maxRequestBodySize", "sprout.server.max-request-body-size"),
            Map.entry("requestHead", "sprout.server.request-head-timeout"),
            Map.entry("idle", "sprout.server.idle-timeout"),
            Map.entry("bodyRead", "sprout.server.body-read-timeout"),
            Map.entry("write", "sprout.server.write-timeout"),
            Map.entry("requestBody", "sprout.server.request-body-timeout"),
            Map.entry("headBytesPerSecond", "sprout.server.min-head-data-rate"),
            Map.entry("headGracePeriod", "sprout.server.min-head-data-rate-grace-period"),
            Map.entry("bodyBytesPerSecond", "sprout.server.min-body-data-rate"),
            Map.entry("bodyGracePeriod", "sprout.server.min-body-data-rate-grace-period"));

    /** The same for the component names of {@code WebSocketConfig}. */
    static final Map<String, String> WEBSOCKET_PROPERTIES = Map.ofEntries(
            Map.entry("maxFrameSize", "sprout.server.websocket.max-frame-size"),
            Map.entry("maxTextMessageSize", "sprout.server.websocket.max-text-message-size"),
            Map.entry("maxBinaryMessageSize", "sprout.server.websocket.max-binary-message-size"),
            Map.entry("idleTimeout", "sprout.server.websocket.idle-timeout"),
            Map.entry("closeTimeout", "sprout.server.websocket.close-timeout"),
            Map.entry("maxQueuedBytes", "sprout.server.websocket.outbound-queue-limit"),
            Map.entry("compression", "sprout.server.websocket.permessage-deflate"));

    /** The same for the component names of {@code Http2Config}. */
    static final Map<String, String> HTTP2_PROPERTIES = Map.ofEntries(
            Map.entry("maxConcurrentStreams", "sprout.server.http2.max-concurrent-streams"),
            Map.entry("maxConcurrentStreamExecution", "sprout.server.http2.max-concurrent-stream-execution"),
            Map.entry("initialWindowSize", "sprout.server.http2.initial-window-size"),
            Map.entry("connectionWindowSize", "sprout.server.http2.connection-window-size"),
            Map.entry("maxFrameSize", "sprout.server.http2.max-frame-size"),
            Map.entry("headerTableSize", "sprout.server.http2.header-table-size"),
            Map.entry("maxHeaderListSize", "sprout.server.http2.max-header-list-size"),
            Map.entry("maxSettingsEntries", "sprout.server.http2.max-settings-entries"),
            Map.entry("maxUpgradeBodySize", "sprout.server.http2.max-upgrade-body-size"),
            Map.entry("maxResets", "sprout.server.http2.max-resets"),
            Map.entry("maxControlFrames", "sprout.server.http2.max-control-frames"),
            Map.entry("maxEmptyFrames", "sprout.server.http2.max-empty-frames"),
            Map.entry("rateWindow", "sprout.server.http2.rate-window"));

    private final ServerProperties serverProperties;
    private final SproutServerProperties sproutProperties;
    private final Environment environment;
    private final boolean warmsUp;

    public SproutWebServerFactoryCustomizer(ServerProperties serverProperties, SproutServerProperties sproutProperties,
            Environment environment) {
        this(serverProperties, sproutProperties, environment, true);
    }

    /** @param warmsUp whether {@code sprout.server.warm-up.*} applies (the application's server, not management's) */
    public SproutWebServerFactoryCustomizer(ServerProperties serverProperties, SproutServerProperties sproutProperties,
            Environment environment, boolean warmsUp) {
        this.serverProperties = serverProperties;
        this.sproutProperties = sproutProperties;
        this.environment = environment;
        this.warmsUp = warmsUp;
    }

    /** After Boot's {@code ServletWebServerFactoryCustomizer} and {@code ReactiveWebServerFactoryCustomizer} (order 0). */
    @Override
    public int getOrder() {
        return 10;
    }

    @Override
    public void customize(AbstractSproutWebServerFactory factory) {
        SproutServerProperties p = sproutProperties;
        ServerConfig config = validated(PROPERTIES, () -> {
            ServerConfig base = factory.getServerConfig();
            ServerConfig.Builder builder = base.toBuilder()
                    .executionMode(p.getExecutionMode())
                    .threadType(threadType())
                    .workerQueueCapacity(p.getWorkerQueueCapacity())
                    .socketSendBuffer(toInt(p.getSocketSendBuffer().toBytes()))
                    .maxKeepAliveRequests(p.getMaxKeepAliveRequests())
                    .bufferSize(toInt(p.getBufferSize().toBytes()))
                    .bufferPoolCapacity(p.getBufferPoolCapacity())
                    .limits(base.limits()
                            .withMaxRequestLineLength(toInt(p.getMaxRequestLineLength().toBytes()))
                            .withMaxHeaderCount(p.getMaxHeaderCount())
                            .withMaxHeaderSectionSize(
                                    toInt(serverProperties.getMaxHttpRequestHeaderSize().toBytes()))
                            .withMaxRequestBodySize(p.getMaxRequestBodySize().toBytes()))
                    .timeouts(base.timeouts()
                            .withRequestHead(p.getRequestHeadTimeout())
                            .withIdle(p.getIdleTimeout())
                            .withBodyRead(p.getBodyReadTimeout())
                            .withWrite(p.getWriteTimeout())
                            .withRequestBody(p.getRequestBodyTimeout()))
                    .minDataRates(new MinDataRates(p.getMinHeadDataRate(), p.getMinHeadDataRateGracePeriod(),
                            p.getMinBodyDataRate(), p.getMinBodyDataRateGracePeriod()));
            // Unset, these keep the factory's default (the reactive factory's pool is smaller than the servlet one's).
            if (p.getThreadPoolSize() != null) {
                builder.threadPoolSize(p.getThreadPoolSize());
            }
            if (p.getSelectorThreads() != null) {
                builder.selectorThreads(p.getSelectorThreads());
            }
            if (p.getMaxConnections() != null) {
                builder.maxConnections(p.getMaxConnections());
            }
            if (p.getAcceptBacklog() != null) {
                builder.acceptBacklog(p.getAcceptBacklog());
            }
            return builder.build();
        });
        factory.setServerConfig(config);
        factory.setMaxHttpRequestHeaderSize(toInt(serverProperties.getMaxHttpRequestHeaderSize().toBytes()));
        factory.setTlsHandshakeTimeout(tlsHandshakeTimeout());
        if (factory.getHttp2() != null && factory.getHttp2().isEnabled()) {
            factory.setHttp2Config(http2Config(p.getHttp2()));
        }
        factory.setWebSocketConfig(webSocketConfig(p.getWebsocket()));
        factory.setWarmUp(warmsUp ? warmUp(p.getWarmUp()) : null);
        factory.setUseForwardHeaders(useForwardHeaders());
        if (factory instanceof SproutServletWebServerFactory servlet) {
            customizeServlet(servlet);
        }
    }

    /** What only the servlet container has: its async timeout, TRACE, Jakarta WebSocket send timeout and access log. */
    private void customizeServlet(SproutServletWebServerFactory factory) {
        SproutServerProperties p = sproutProperties;
        factory.setAsyncTimeout(p.getAsyncTimeout());
        factory.setAllowTrace(p.isAllowTrace());
        factory.setWebSocketAsyncSendTimeout(p.getWebsocket().getAsyncSendTimeout());
        if (p.getAccesslog().isEnabled()) {
            String pattern = p.getAccesslog().getFormat();
            try {
                new AccessLog(pattern);
            } catch (IllegalArgumentException e) {
                throw new InvalidConfigurationPropertyValueException("sprout.server.accesslog.format", pattern,
                        e.getMessage());
            }
            factory.setAccessLogPattern(pattern);
        }
    }

    /**
     * {@code native}, or no strategy on a cloud platform whose router adds forwarded headers: Boot's rule for
     * Tomcat, Jetty and Reactor Netty alike, so moving to Sprout changes nothing on Cloud Foundry or Kubernetes.
     * {@code framework} leaves the headers to Spring's filter, which would otherwise apply them a second time.
     */
    private boolean useForwardHeaders() {
        ServerProperties.ForwardHeadersStrategy strategy = serverProperties.getForwardHeadersStrategy();
        if (strategy == null) {
            CloudPlatform platform = CloudPlatform.getActive(environment);
            return platform != null && platform.isUsingForwardHeaders();
        }
        return strategy == ServerProperties.ForwardHeadersStrategy.NATIVE;
    }

    /**
     * Checked here because the factory builds the engine's TLS only when the server is created, where a bad value
     * could no longer be blamed on its property.
     */
    private Duration tlsHandshakeTimeout() {
        Duration timeout = sproutProperties.getTlsHandshakeTimeout();
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new InvalidConfigurationPropertyValueException("sprout.server.tls-handshake-timeout", timeout,
                    "the value must be a positive duration but was " + timeout);
        }
        return timeout;
    }

    private ThreadType threadType() {
        if (sproutProperties.getThreadType() != null) {
            return sproutProperties.getThreadType();
        }
        return Threading.VIRTUAL.isActive(environment) ? ThreadType.VIRTUAL : ThreadType.PLATFORM;
    }

    private static int toInt(long bytes) {
        return bytes > Integer.MAX_VALUE ? Integer.MAX_VALUE : bytes < Integer.MIN_VALUE ? Integer.MIN_VALUE
                : (int) bytes;
    }

    private static WebSocketConfig webSocketConfig(SproutServerProperties.Websocket w) {
        return validated(WEBSOCKET_PROPERTIES, () -> new WebSocketConfig(
                w.getMaxFrameSize() == null ? Integer.MAX_VALUE : toInt(w.getMaxFrameSize().toBytes()),
                toInt(w.getMaxTextMessageSize().toBytes()), toInt(w.getMaxBinaryMessageSize().toBytes()),
                w.getIdleTimeout(), w.getCloseTimeout(), w.getOutboundQueueLimit().toBytes(),
                w.isPermessageDeflate()));
    }

    /**
     * Only while {@code server.http2.enabled}: unused settings are not checked, and a header limit that suits HTTP/1.1
     * but not HTTP/2 (over 1 MiB) fails nothing while HTTP/2 is off. An unset {@code max-header-list-size} follows
     * {@code server.max-http-request-header-size}, so a refusal of that value names that property.
     */
    private Http2Config http2Config(SproutServerProperties.Http2 h) {
        Map<String, String> table = HTTP2_PROPERTIES;
        DataSize headerListSize = h.getMaxHeaderListSize();
        if (headerListSize == null) {
            headerListSize = serverProperties.getMaxHttpRequestHeaderSize();
            table = new HashMap<>(HTTP2_PROPERTIES);
            table.put("maxHeaderListSize", "server.max-http-request-header-size");
        }
        int maxHeaderListSize = toInt(headerListSize.toBytes());
        return validated(table, () -> new Http2Config(h.getMaxConcurrentStreams(),
                h.getMaxConcurrentStreamExecution(), toInt(h.getInitialWindowSize().toBytes()),
                toInt(h.getConnectionWindowSize().toBytes()), toInt(h.getMaxFrameSize().toBytes()),
                toInt(h.getHeaderTableSize().toBytes()), maxHeaderListSize,
                h.getMaxSettingsEntries(), toInt(h.getMaxUpgradeBodySize().toBytes()), h.getMaxResets(),
                h.getMaxControlFrames(), h.getMaxEmptyFrames(), h.getRateWindow()));
    }

    /** The warm-up, or {@code null} when it is off; each bad value fails naming its property. */
    private static WarmUp warmUp(SproutServerProperties.WarmUp w) {
        if (!w.isEnabled()) {
            return null;
        }
        String prefix = "sprout.server.warm-up.";
        require(!w.getPaths().isEmpty() && w.getPaths().stream().allMatch(path -> path.startsWith("/")),
                prefix + "paths", w.getPaths(), "one or more paths, each starting with /");
        require(w.getRequests() >= 1, prefix + "requests", w.getRequests(), "at least 1");
        require(w.getConcurrency() >= 1, prefix + "concurrency", w.getConcurrency(), "at least 1");
        require(w.getTimeout().isPositive(), prefix + "timeout", w.getTimeout(), "a positive duration");
        require(w.getLoadShare() > 0 && w.getLoadShare() <= 1, prefix + "load-share", w.getLoadShare(),
                "more than 0 and at most 1");
        return new WarmUp(w.getPaths(), w.getRequests(), w.getConcurrency(), w.getTimeout(), w.isUntilCompiled(),
                w.getLoadShare());
    }

    private static void require(boolean valid, String property, Object value, String allowed) {
        if (!valid) {
            throw new InvalidConfigurationPropertyValueException(property, value,
                    "the value must be " + allowed + " but was " + value);
        }
    }

    /** Builds an engine config; a field it rejects fails naming the property {@code table} maps it to. */
    private static <T> T validated(Map<String, String> table, Supplier<T> build) {
        try {
            return build.get();
        } catch (InvalidConfigException e) {
            String property = table.get(e.field());
            if (property == null) {
                throw e;
            }
            throw new InvalidConfigurationPropertyValueException(property, e.value(),
                    "the value must be " + e.allowed() + " but was " + e.value(), e);
        }
    }
}
