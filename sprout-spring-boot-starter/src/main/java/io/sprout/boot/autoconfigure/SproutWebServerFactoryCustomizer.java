package io.sprout.boot.autoconfigure;

import io.sprout.boot.servlet.AccessLog;
import io.sprout.boot.web.SproutServletWebServerFactory;
import io.sprout.engine.ServerConfig;
import io.sprout.engine.ThreadType;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.thread.Threading;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.server.autoconfigure.ServerProperties;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;

import java.util.List;
import java.util.Map;

/**
 * Applies {@code sprout.server.*} and the {@code server.*} properties Boot does not map for every server
 * ({@code max-http-request-header-size}, {@code forward-headers-strategy=native}) to the factory. Runs after
 * Boot's own servlet customizer. Values the engine rejects fail start-up with an
 * {@link InvalidConfigurationPropertyValueException} naming the property and the allowed range.
 */
public final class SproutWebServerFactoryCustomizer
        implements WebServerFactoryCustomizer<SproutServletWebServerFactory>, Ordered {

    /** Engine config field names, as the engine's validation messages use them, to property names. */
    private static final List<Map.Entry<String, String>> PROPERTIES = List.of(
            Map.entry("threadPoolSize", "sprout.server.thread-pool-size"),
            Map.entry("workerQueueCapacity", "sprout.server.worker-queue-capacity"),
            Map.entry("selectorThreads", "sprout.server.selector-threads"),
            Map.entry("acceptBacklog", "sprout.server.accept-backlog"),
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
            Map.entry("port", "server.port"),
            Map.entry("serverHeader", "server.server-header"));

    private final ServerProperties serverProperties;
    private final SproutServerProperties sproutProperties;
    private final Environment environment;

    public SproutWebServerFactoryCustomizer(ServerProperties serverProperties, SproutServerProperties sproutProperties,
            Environment environment) {
        this.serverProperties = serverProperties;
        this.sproutProperties = sproutProperties;
        this.environment = environment;
    }

    /** After Boot's {@code ServletWebServerFactoryCustomizer} (order 0). */
    @Override
    public int getOrder() {
        return 10;
    }

    @Override
    public void customize(SproutServletWebServerFactory factory) {
        SproutServerProperties p = sproutProperties;
        ServerConfig config = validated(() -> {
            ServerConfig base = factory.getServerConfig();
            ServerConfig.Builder builder = base.toBuilder()
                    .executionMode(p.getExecutionMode())
                    .threadType(threadType())
                    .threadPoolSize(p.getThreadPoolSize())
                    .workerQueueCapacity(p.getWorkerQueueCapacity())
                    .acceptBacklog(p.getAcceptBacklog())
                    .maxConnections(p.getMaxConnections())
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
                            .withWrite(p.getWriteTimeout()));
            if (p.getSelectorThreads() != null) {
                builder.selectorThreads(p.getSelectorThreads());
            }
            return builder.build();
        });
        factory.setServerConfig(config);
        factory.setMaxHttpRequestHeaderSize(toInt(serverProperties.getMaxHttpRequestHeaderSize().toBytes()));
        factory.setUseForwardHeaders(
                serverProperties.getForwardHeadersStrategy() == ServerProperties.ForwardHeadersStrategy.NATIVE);
        factory.setAsyncTimeout(p.getAsyncTimeout());
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

    private static ServerConfig validated(java.util.function.Supplier<ServerConfig> build) {
        try {
            return build.get();
        } catch (IllegalArgumentException e) {
            String message = String.valueOf(e.getMessage());
            for (Map.Entry<String, String> entry : PROPERTIES) {
                if (message.startsWith(entry.getKey() + " ")) {
                    throw new InvalidConfigurationPropertyValueException(entry.getValue(), valueIn(message),
                            message.replaceFirst("^" + entry.getKey(), "the value"));
                }
            }
            throw e;
        }
    }

    private static String valueIn(String message) {
        int at = message.lastIndexOf(" was ");
        return at < 0 ? "?" : message.substring(at + 5);
    }
}
