package io.sprout.boot.autoconfigure;

import io.sprout.boot.web.AbstractSproutWebServerFactory;
import io.sprout.boot.web.SproutReactiveWebServerFactory;
import io.sprout.boot.web.SproutServletWebServerFactory;
import io.sprout.boot.web.WarmUp;
import io.sprout.engine.ExecutionMode;
import io.sprout.engine.Http2Config;
import io.sprout.engine.HttpLimits;
import io.sprout.engine.InvalidConfigException;
import io.sprout.engine.MinDataRates;
import io.sprout.engine.ServerConfig;
import io.sprout.engine.ThreadType;
import io.sprout.engine.Timeouts;
import io.sprout.engine.WebSocketConfig;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.web.server.Http2;
import org.springframework.boot.web.server.autoconfigure.ServerProperties;
import org.springframework.mock.env.MockEnvironment;
import org.springframework.util.unit.DataSize;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.RecordComponent;
import java.net.InetAddress;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The customizer's table from engine config fields to properties: it covers every field the customizer sets and no
 * other, names real properties, and turns the engine's {@link InvalidConfigException} into Boot's start-up failure.
 */
class SproutWebServerFactoryCustomizerTest {

    /** Engine config fields that no property of this customizer sets, and why; every other field needs a row. */
    private static final Map<String, String> NOT_FROM_PROPERTIES = Map.ofEntries(
            Map.entry("address", "server.address: the factory applies it when the server starts"),
            Map.entry("port", "server.port: the factory applies it when the server starts"),
            Map.entry("additionalPorts",
                    "no property, as Tomcat has none: SproutServletWebServerFactory.addAdditionalPorts"),
            Map.entry("serverHeader", "server.server-header: the factory applies it when the server starts"),
            Map.entry("limits", "a nested record the customizer derives from the factory's, never null"),
            Map.entry("timeouts", "a nested record the customizer derives from the factory's, never null"),
            Map.entry("minDataRates", "a nested record the customizer builds from the properties, never null"),
            Map.entry("maxChunkLineLength", "no property: the engine's default"),
            Map.entry("maxTrailerSize", "no property: the engine's default"),
            Map.entry("maxDrainSize", "no property: the engine's default"),
            Map.entry("tls", "server.ssl.*: the factory builds it from Boot's Ssl and SSL bundles when it creates "
                    + "the server (SslBundleTls)"),
            Map.entry("contexts", "part of tls: server.ssl.* or server.ssl.bundle, plus server.ssl.server-name-bundles"
                    + " for SNI, reloaded with the bundles"),
            Map.entry("clientAuth", "part of tls: server.ssl.client-auth, which the factory maps"),
            Map.entry("handshakeTimeout", "part of tls: sprout.server.tls-handshake-timeout, which this customizer "
                    + "hands to the factory (setTlsHandshakeTimeout) for when it builds tls"),
            Map.entry("http2", "server.http2.enabled: the factory sets it when it creates the server, from the "
                    + "Http2Config this customizer builds of sprout.server.http2.* (HTTP2_PROPERTIES)"));

    private static final Pattern METADATA_NAME = Pattern.compile("\"name\"\\s*:\\s*\"([^\"]+)\"");

    @Test
    void everyEngineConfigFieldHasAPropertyOrAReasonForNone() {
        List<String> fields = componentNames(ServerConfig.class);
        List<String> unclassified = fields.stream()
                .filter(field -> !SproutWebServerFactoryCustomizer.PROPERTIES.containsKey(field))
                .filter(field -> !NOT_FROM_PROPERTIES.containsKey(field))
                .filter(field -> !SproutWebServerFactoryCustomizer.HTTP2_PROPERTIES.containsKey(field))
                .toList();

        assertThat(fields).as("field() alone must identify a component").doesNotHaveDuplicates();
        assertThat(unclassified).as("engine config fields with neither a property nor a reason for none").isEmpty();
        assertThat(NOT_FROM_PROPERTIES.keySet()).as("fields listed both ways")
                .doesNotContainAnyElementsOf(SproutWebServerFactoryCustomizer.PROPERTIES.keySet());
    }

    @Test
    void theTableListsExactlyTheFieldsTheCustomizerSets() {
        ServerConfig marked = ServerConfig.builder()
                .address(InetAddress.getLoopbackAddress())
                .port(7)
                .executionMode(ExecutionMode.HYBRID)
                .threadType(ThreadType.VIRTUAL)
                .threadPoolSize(7)
                .workerQueueCapacity(7)
                .selectorThreads(7)
                .acceptBacklog(7)
                .socketSendBuffer(7 * 4096)
                .maxConnections(7)
                .maxKeepAliveRequests(7)
                .serverHeader("marker")
                .bufferSize(2048)
                .bufferPoolCapacity(7)
                .limits(new HttpLimits(100, 100, 7, 7, 100, 7, 7))
                .timeouts(new Timeouts(Duration.ofSeconds(7), Duration.ofSeconds(7), Duration.ofSeconds(7),
                        Duration.ofSeconds(7), Duration.ofSeconds(7)))
                .minDataRates(new MinDataRates(7, Duration.ofSeconds(7), 7, Duration.ofSeconds(7)))
                .build();
        SproutServerProperties sprout = new SproutServerProperties();
        // The properties without a default: unset, the customizer leaves the fields alone.
        sprout.setSelectorThreads(3);
        sprout.setMaxConnections(3);
        sprout.setThreadPoolSize(3);
        sprout.setAcceptBacklog(3);
        SproutServletWebServerFactory factory = new SproutServletWebServerFactory();
        factory.setServerConfig(marked);

        customizer(new ServerProperties(), sprout).customize(factory);

        Map<String, Object> before = leafFields(marked);
        Map<String, Object> after = leafFields(factory.getServerConfig());
        Set<String> changed = new TreeSet<>();
        before.forEach((field, value) -> {
            if (!Objects.equals(value, after.get(field))) {
                changed.add(field);
            }
        });
        assertThat(changed).isEqualTo(new TreeSet<>(SproutWebServerFactoryCustomizer.PROPERTIES.keySet()));
    }

    @Test
    void everyPropertyInTheTableIsADocumentedProperty() throws IOException {
        Set<String> documented = documentedProperties();

        assertThat(documented).contains("sprout.server.thread-pool-size", "server.port");
        assertThat(SproutWebServerFactoryCustomizer.PROPERTIES.values()).allSatisfy(
                property -> assertThat(documented).as("configuration metadata").contains(property));
    }

    @Test
    void aValueTheEngineRejectsFailsNamingTheSproutProperty() {
        SproutServerProperties sprout = new SproutServerProperties();
        sprout.setThreadPoolSize(0);

        assertThatThrownBy(() -> customizer(new ServerProperties(), sprout)
                .customize(new SproutServletWebServerFactory()))
                .isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class, e -> {
                    assertThat(e.getName()).isEqualTo("sprout.server.thread-pool-size");
                    assertThat(e.getValue()).isEqualTo(0L);
                    assertThat(e.getReason()).isEqualTo("the value must be between 1 and 32767 but was 0");
                    assertThat(e.getCause()).isInstanceOfSatisfying(InvalidConfigException.class,
                            cause -> assertThat(cause.field()).isEqualTo("threadPoolSize"));
                });
    }

    @Test
    void anUnsetPoolSizeKeepsEachFactorysDefaultAndASetOneAppliesToBoth() {
        SproutServletWebServerFactory servlet = new SproutServletWebServerFactory();
        SproutReactiveWebServerFactory reactive = new SproutReactiveWebServerFactory();
        customizer(new ServerProperties(), new SproutServerProperties()).customize(servlet);
        customizer(new ServerProperties(), new SproutServerProperties()).customize(reactive);
        assertThat(servlet.getServerConfig().threadPoolSize()).isEqualTo(200);
        assertThat(reactive.getServerConfig().threadPoolSize())
                .isEqualTo(Math.max(4, 2 * Runtime.getRuntime().availableProcessors()));

        SproutServerProperties sized = new SproutServerProperties();
        sized.setThreadPoolSize(42);
        SproutServletWebServerFactory sizedServlet = new SproutServletWebServerFactory();
        SproutReactiveWebServerFactory sizedReactive = new SproutReactiveWebServerFactory();
        customizer(new ServerProperties(), sized).customize(sizedServlet);
        customizer(new ServerProperties(), sized).customize(sizedReactive);
        assertThat(sizedServlet.getServerConfig().threadPoolSize()).isEqualTo(42);
        assertThat(sizedReactive.getServerConfig().threadPoolSize()).isEqualTo(42);
    }

    /** A configured value carried over as it is, not a time anything is measured against. */
    private static final Duration WARM_UP_LIMIT = Duration.ofSeconds(3);

    @Test
    void theWarmUpIsOffByDefaultAndTakesItsProperties() {
        SproutServletWebServerFactory factory = new SproutServletWebServerFactory();
        customizer(new ServerProperties(), new SproutServerProperties()).customize(factory);
        assertThat(factory.getWarmUp()).isNull();

        SproutServerProperties sprout = new SproutServerProperties();
        sprout.getWarmUp().setEnabled(true);
        sprout.getWarmUp().setPaths(List.of("/a", "/b?c=d"));
        sprout.getWarmUp().setRequests(500);
        sprout.getWarmUp().setConcurrency(2);
        sprout.getWarmUp().setTimeout(WARM_UP_LIMIT);
        sprout.getWarmUp().setUntilCompiled(true);
        sprout.getWarmUp().setLoadShare(0.5);
        customizer(new ServerProperties(), sprout).customize(factory);

        assertThat(factory.getWarmUp())
                .isEqualTo(new WarmUp(List.of("/a", "/b?c=d"), 500, 2, WARM_UP_LIMIT, true, 0.5));
    }

    @Test
    void aBadWarmUpValueFailsNamingItsProperty() {
        assertWarmUpRefused(warmUp -> warmUp.setPaths(List.of("relative")), "sprout.server.warm-up.paths",
                "one or more paths, each starting with /");
        assertWarmUpRefused(warmUp -> warmUp.setPaths(List.of()), "sprout.server.warm-up.paths",
                "one or more paths, each starting with /");
        assertWarmUpRefused(warmUp -> warmUp.setRequests(0), "sprout.server.warm-up.requests", "at least 1");
        assertWarmUpRefused(warmUp -> warmUp.setConcurrency(0), "sprout.server.warm-up.concurrency", "at least 1");
        assertWarmUpRefused(warmUp -> warmUp.setTimeout(Duration.ZERO), "sprout.server.warm-up.timeout",
                "a positive duration");
        assertWarmUpRefused(warmUp -> warmUp.setLoadShare(0), "sprout.server.warm-up.load-share",
                "more than 0 and at most 1");
        assertWarmUpRefused(warmUp -> warmUp.setLoadShare(1.5), "sprout.server.warm-up.load-share",
                "more than 0 and at most 1");
    }

    private void assertWarmUpRefused(java.util.function.Consumer<SproutServerProperties.WarmUp> change,
            String property, String allowed) {
        SproutServerProperties sprout = new SproutServerProperties();
        sprout.getWarmUp().setEnabled(true);
        change.accept(sprout.getWarmUp());

        assertThatThrownBy(() -> customizer(new ServerProperties(), sprout)
                .customize(new SproutServletWebServerFactory()))
                .isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class, e -> {
                    assertThat(e.getName()).isEqualTo(property);
                    assertThat(e.getReason()).startsWith("the value must be " + allowed + " but was ");
                });
    }

    @Test
    void aValueTheEngineRejectsFailsNamingTheServerProperty() {
        ServerProperties server = new ServerProperties();
        server.setMaxHttpRequestHeaderSize(DataSize.ofBytes(10));

        assertThatThrownBy(() -> customizer(server, new SproutServerProperties())
                .customize(new SproutServletWebServerFactory()))
                .isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class, e -> {
                    assertThat(e.getName()).isEqualTo("server.max-http-request-header-size");
                    assertThat(e.getReason()).isEqualTo("the value must be between 64 and 1048576 but was 10");
                });
    }

    @Test
    void everyWebSocketConfigFieldHasADocumentedProperty() throws IOException {
        Set<String> documented = documentedProperties();

        assertThat(SproutWebServerFactoryCustomizer.WEBSOCKET_PROPERTIES.keySet())
                .containsExactlyInAnyOrderElementsOf(componentNames(WebSocketConfig.class));
        assertThat(SproutWebServerFactoryCustomizer.WEBSOCKET_PROPERTIES.values()).allSatisfy(
                property -> assertThat(documented).as("configuration metadata").contains(property));
    }

    @Test
    void webSocketPropertiesReachTheFactory() {
        SproutServerProperties sprout = new SproutServerProperties();
        SproutServerProperties.Websocket websocket = sprout.getWebsocket();
        websocket.setMaxFrameSize(DataSize.ofKilobytes(8));
        websocket.setMaxTextMessageSize(DataSize.ofKilobytes(16));
        websocket.setMaxBinaryMessageSize(DataSize.ofKilobytes(32));
        websocket.setIdleTimeout(Duration.ofSeconds(40));
        websocket.setCloseTimeout(Duration.ofSeconds(3));
        websocket.setOutboundQueueLimit(DataSize.ofMegabytes(1));
        websocket.setPermessageDeflate(false);
        SproutServletWebServerFactory factory = new SproutServletWebServerFactory();

        customizer(new ServerProperties(), sprout).customize(factory);

        assertThat(factory.getWebSocketConfig()).isEqualTo(new WebSocketConfig(8192, 16384, 32768,
                Duration.ofSeconds(40), Duration.ofSeconds(3), 1024 * 1024, false));
    }

    @Test
    void aWebSocketValueTheEngineRejectsFailsNamingTheProperty() {
        SproutServerProperties sprout = new SproutServerProperties();
        sprout.getWebsocket().setMaxFrameSize(DataSize.ofBytes(10));

        assertThatThrownBy(() -> customizer(new ServerProperties(), sprout)
                .customize(new SproutServletWebServerFactory()))
                .isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class,
                        e -> assertThat(e.getName()).isEqualTo("sprout.server.websocket.max-frame-size"));
    }

    @Test
    void everyHttp2ConfigFieldHasADocumentedProperty() throws IOException {
        Set<String> documented = documentedProperties();

        assertThat(SproutWebServerFactoryCustomizer.HTTP2_PROPERTIES.keySet())
                .containsExactlyInAnyOrderElementsOf(componentNames(Http2Config.class));
        assertThat(SproutWebServerFactoryCustomizer.HTTP2_PROPERTIES.values()).allSatisfy(
                property -> assertThat(documented).as("configuration metadata").contains(property));
    }

    @Test
    void http2PropertiesDefaultToTheEngineDefaults() {
        SproutServletWebServerFactory factory = http2Factory();

        customizer(new ServerProperties(), new SproutServerProperties()).customize(factory);

        assertThat(factory.getHttp2Config()).isEqualTo(Http2Config.DEFAULT);
    }

    @Test
    void http2PropertiesReachTheFactoryOnlyWhenHttp2IsEnabled() {
        SproutServerProperties sprout = new SproutServerProperties();
        SproutServerProperties.Http2 http2 = sprout.getHttp2();
        http2.setMaxConcurrentStreams(7);
        http2.setInitialWindowSize(DataSize.ofKilobytes(128));
        http2.setConnectionWindowSize(DataSize.ofMegabytes(2));
        http2.setMaxFrameSize(DataSize.ofKilobytes(32));
        http2.setHeaderTableSize(DataSize.ofKilobytes(8));
        http2.setMaxHeaderListSize(DataSize.ofKilobytes(16));
        http2.setMaxSettingsEntries(10);
        http2.setMaxUpgradeBodySize(DataSize.ofKilobytes(1));
        http2.setMaxResets(20);
        http2.setMaxControlFrames(30);
        http2.setMaxEmptyFrames(40);
        http2.setMaxConcurrentStreamExecution(5);
        http2.setRateWindow(Duration.ofSeconds(5));
        SproutServletWebServerFactory enabled = http2Factory();
        SproutServletWebServerFactory disabled = new SproutServletWebServerFactory();

        customizer(new ServerProperties(), sprout).customize(enabled);
        customizer(new ServerProperties(), sprout).customize(disabled);

        assertThat(enabled.getHttp2Config()).isEqualTo(new Http2Config(7, 5, 128 * 1024, 2 * 1024 * 1024, 32 * 1024,
                8 * 1024, 16 * 1024, 10, 1024, 20, 30, 40, Duration.ofSeconds(5)));
        assertThat(disabled.getHttp2Config()).isNull();
    }

    @Test
    void anUnsetHeaderListSizeFollowsTheHttp11HeaderLimitAndFailsNamingIt() {
        ServerProperties server = new ServerProperties();
        server.setMaxHttpRequestHeaderSize(DataSize.ofKilobytes(20));
        SproutServletWebServerFactory factory = http2Factory();
        customizer(server, new SproutServerProperties()).customize(factory);
        ServerProperties huge = new ServerProperties();
        huge.setMaxHttpRequestHeaderSize(DataSize.ofMegabytes(2));

        assertThat(factory.getHttp2Config().maxHeaderListSize()).isEqualTo(20 * 1024);
        assertThatThrownBy(() -> customizer(huge, new SproutServerProperties()).customize(http2Factory()))
                .isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class, e -> {
                    assertThat(e.getName()).isEqualTo("server.max-http-request-header-size");
                    assertThat(e.getReason()).isEqualTo("the value must be between 64 and 1048576 but was 2097152");
                });
    }

    @Test
    void anHttp2ValueTheEngineRejectsFailsNamingTheProperty() {
        SproutServerProperties sprout = new SproutServerProperties();
        sprout.getHttp2().setInitialWindowSize(DataSize.ofKilobytes(1));

        assertThatThrownBy(() -> customizer(new ServerProperties(), sprout).customize(http2Factory()))
                .isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class, e -> {
                    assertThat(e.getName()).isEqualTo("sprout.server.http2.initial-window-size");
                    assertThat(e.getReason()).isEqualTo("the value must be between 65535 and 2147483647 but was 1024");
                });
    }

    private static SproutServletWebServerFactory http2Factory() {
        SproutServletWebServerFactory factory = new SproutServletWebServerFactory();
        Http2 http2 = new Http2();
        http2.setEnabled(true);
        factory.setHttp2(http2);
        return factory;
    }

    @Test
    void passesTheTlsHandshakeTimeoutToTheFactory() {
        SproutServerProperties sprout = new SproutServerProperties();
        sprout.setTlsHandshakeTimeout(Duration.ofSeconds(3));
        SproutServletWebServerFactory factory = new SproutServletWebServerFactory();

        customizer(new ServerProperties(), sprout).customize(factory);

        assertThat(factory.getTlsHandshakeTimeout()).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void refusesTraceUnlessAllowTraceIsSet() throws IOException {
        SproutServletWebServerFactory byDefault = new SproutServletWebServerFactory();
        customizer(new ServerProperties(), new SproutServerProperties()).customize(byDefault);
        SproutServerProperties sprout = new SproutServerProperties();
        sprout.setAllowTrace(true);
        SproutServletWebServerFactory allowing = new SproutServletWebServerFactory();
        customizer(new ServerProperties(), sprout).customize(allowing);

        assertThat(byDefault.isAllowTrace()).isFalse();
        assertThat(allowing.isAllowTrace()).isTrue();
        assertThat(documentedProperties()).contains("sprout.server.allow-trace");
    }

    @Test
    void aTlsHandshakeTimeoutOfZeroFailsNamingTheProperty() {
        SproutServerProperties sprout = new SproutServerProperties();
        sprout.setTlsHandshakeTimeout(Duration.ZERO);

        assertThatThrownBy(() -> customizer(new ServerProperties(), sprout)
                .customize(new SproutServletWebServerFactory()))
                .isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class, e -> {
                    assertThat(e.getName()).isEqualTo("sprout.server.tls-handshake-timeout");
                    assertThat(e.getReason()).isEqualTo("the value must be a positive duration but was PT0S");
                });
    }

    @Test
    void usesForwardHeadersOnBothFactoriesUnderNativeOrOnACloudPlatformAsBootDoes() {
        assertThat(usesForwardHeaders(null, new SproutServletWebServerFactory(), new MockEnvironment())).isFalse();
        assertThat(usesForwardHeaders(ServerProperties.ForwardHeadersStrategy.NATIVE,
                new SproutReactiveWebServerFactory(), new MockEnvironment())).isTrue();
        assertThat(usesForwardHeaders(ServerProperties.ForwardHeadersStrategy.NATIVE,
                new SproutServletWebServerFactory(), new MockEnvironment())).isTrue();
        MockEnvironment kubernetes = new MockEnvironment().withProperty("spring.main.cloud-platform", "kubernetes");
        assertThat(usesForwardHeaders(null, new SproutReactiveWebServerFactory(), kubernetes)).isTrue();
        // framework: Spring's filter applies them, so the server must not apply them a second time.
        assertThat(usesForwardHeaders(ServerProperties.ForwardHeadersStrategy.FRAMEWORK,
                new SproutReactiveWebServerFactory(), kubernetes)).isFalse();
        assertThat(usesForwardHeaders(ServerProperties.ForwardHeadersStrategy.NONE,
                new SproutServletWebServerFactory(), kubernetes)).isFalse();
    }

    private static boolean usesForwardHeaders(ServerProperties.ForwardHeadersStrategy strategy,
            AbstractSproutWebServerFactory factory, MockEnvironment environment) {
        ServerProperties server = new ServerProperties();
        server.setForwardHeadersStrategy(strategy);
        new SproutWebServerFactoryCustomizer(server, new SproutServerProperties(), environment).customize(factory);
        return factory.isUseForwardHeaders();
    }

    private static SproutWebServerFactoryCustomizer customizer(ServerProperties server,
            SproutServerProperties sprout) {
        return new SproutWebServerFactoryCustomizer(server, sprout, new MockEnvironment());
    }

    /** The component names of a config record and, depth first, of the records nested in it. */
    private static List<String> componentNames(Class<? extends Record> type) {
        List<String> names = new ArrayList<>();
        for (RecordComponent component : type.getRecordComponents()) {
            names.add(component.getName());
            if (component.getType().isRecord()) {
                names.addAll(componentNames(component.getType().asSubclass(Record.class)));
            }
        }
        return names;
    }

    /** The values of a config record's components, nested records flattened into their own components. */
    private static Map<String, Object> leafFields(Record config) {
        Map<String, Object> fields = new LinkedHashMap<>();
        for (RecordComponent component : config.getClass().getRecordComponents()) {
            Object value;
            try {
                value = component.getAccessor().invoke(config);
            } catch (ReflectiveOperationException e) {
                throw new AssertionError(e);
            }
            if (value instanceof Record nested) {
                fields.putAll(leafFields(nested));
            } else {
                fields.put(component.getName(), value);
            }
        }
        return fields;
    }

    /** Every property name in the configuration metadata on the class path: Boot's and ours. */
    private static Set<String> documentedProperties() throws IOException {
        Set<String> names = new TreeSet<>();
        ClassLoader loader = SproutWebServerFactoryCustomizerTest.class.getClassLoader();
        for (URL metadata : Collections.list(loader.getResources("META-INF/spring-configuration-metadata.json"))) {
            try (InputStream in = metadata.openStream()) {
                Matcher name = METADATA_NAME.matcher(new String(in.readAllBytes(), StandardCharsets.UTF_8));
                while (name.find()) {
                    names.add(name.group(1));
                }
            }
        }
        return names;
    }
}
