package io.sprout.boot.autoconfigure;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sprout.boot.metrics.SproutMetricsBinder;
import io.sprout.boot.web.SproutServerConfigCustomizer;
import io.sprout.boot.web.SproutServletWebServerFactory;
import io.sprout.boot.web.SproutWebServer;
import io.sprout.engine.ExecutionMode;
import io.sprout.engine.Http2Config;
import io.sprout.engine.MinDataRates;
import io.sprout.engine.ServerConfig;
import io.sprout.engine.ThreadType;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableWebApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.boot.web.server.servlet.ServletWebServerFactory;
import org.springframework.boot.web.server.servlet.context.AnnotationConfigServletWebServerApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** Conditions, back-off and property binding of the auto-configurations, with {@code ApplicationContextRunner}. */
class SproutServletWebServerAutoConfigurationIT {

    private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SproutServletWebServerAutoConfiguration.class,
                    SproutMetricsAutoConfiguration.class));

    @Test
    void createsTheSproutFactoryInAServletApplication() {
        runner.run(context -> assertThat(context).hasSingleBean(SproutServletWebServerFactory.class)
                .hasSingleBean(SproutWebServerFactoryCustomizer.class));
    }

    @Test
    void backsOffWhenTheApplicationDefinesAFactory() {
        runner.withUserConfiguration(OwnFactory.class).run(context -> {
            assertThat(context).hasSingleBean(ServletWebServerFactory.class);
            assertThat(context).getBean(ServletWebServerFactory.class).isSameAs(context.getBean("ownFactory"));
        });
    }

    @Test
    void doesNothingOutsideAServletApplication() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(
                SproutServletWebServerAutoConfiguration.class))
                .run(context -> assertThat(context).doesNotHaveBean(SproutServletWebServerFactory.class));
    }

    @Test
    void bindsSproutAndServerProperties() {
        runner.withPropertyValues("sprout.server.execution-mode=HYBRID", "sprout.server.thread-type=virtual",
                "sprout.server.thread-pool-size=42", "sprout.server.selector-threads=3",
                "sprout.server.accept-backlog=2048", "sprout.server.max-connections=100",
                "sprout.server.max-keep-alive-requests=50", "sprout.server.idle-timeout=5s",
                "sprout.server.request-head-timeout=2s", "sprout.server.max-request-body-size=1MB",
                "sprout.server.max-header-count=20", "server.max-http-request-header-size=16KB",
                "server.forward-headers-strategy=native", "sprout.server.accesslog.enabled=true",
                "sprout.server.accesslog.format=combined", "sprout.server.async-timeout=7s",
                "sprout.server.request-body-timeout=1m", "sprout.server.min-head-data-rate=100",
                "sprout.server.min-head-data-rate-grace-period=2s", "sprout.server.min-body-data-rate=0",
                "sprout.server.min-body-data-rate-grace-period=3s", "sprout.server.socket-send-buffer=256KB")
                .run(context -> {
                    SproutServletWebServerFactory factory = context.getBean(SproutServletWebServerFactory.class);
                    ServerConfig config = factory.getServerConfig();
                    assertThat(config.executionMode()).isEqualTo(ExecutionMode.HYBRID);
                    assertThat(config.threadType()).isEqualTo(ThreadType.VIRTUAL);
                    assertThat(config.threadPoolSize()).isEqualTo(42);
                    assertThat(config.selectorThreads()).isEqualTo(3);
                    assertThat(config.acceptBacklog()).isEqualTo(2048);
                    assertThat(config.socketSendBuffer()).isEqualTo(256 * 1024);
                    assertThat(config.maxConnections()).isEqualTo(100);
                    assertThat(config.maxKeepAliveRequests()).isEqualTo(50);
                    assertThat(config.timeouts().idle()).isEqualTo(Duration.ofSeconds(5));
                    assertThat(config.timeouts().requestHead()).isEqualTo(Duration.ofSeconds(2));
                    assertThat(config.timeouts().requestBody()).isEqualTo(Duration.ofMinutes(1));
                    assertThat(config.minDataRates()).isEqualTo(new MinDataRates(100, Duration.ofSeconds(2), 0,
                            Duration.ofSeconds(3)));
                    assertThat(config.limits().maxRequestBodySize()).isEqualTo(1024 * 1024);
                    assertThat(config.limits().maxHeaderCount()).isEqualTo(20);
                    assertThat(config.limits().maxHeaderSectionSize()).isEqualTo(16 * 1024);
                    assertThat(factory.isUseForwardHeaders()).isTrue();
                    assertThat(factory.getAccessLogPattern()).isEqualTo("combined");
                    assertThat(factory.getAsyncTimeout()).isEqualTo(Duration.ofSeconds(7));
                });
    }

    @Test
    void sizesTheConnectionLimitAndTheBacklogFromTheSystemsLimitsByDefault() {
        runner.run(context -> {
            ServerConfig config = context.getBean(SproutServletWebServerFactory.class).getServerConfig();
            assertThat(config.maxConnections()).isEqualTo(ServerConfig.defaultMaxConnections());
            assertThat(config.acceptBacklog()).isEqualTo(ServerConfig.defaultAcceptBacklog());
            assertThat(config.minDataRates()).isEqualTo(MinDataRates.DEFAULT);
            assertThat(config.timeouts().requestBody()).isZero();
            assertThat(config.socketSendBuffer()).isEqualTo(ServerConfig.builder().build().socketSendBuffer());
        });
    }

    @Test
    void accessLogIsOffByDefault() {
        runner.run(context -> assertThat(context.getBean(SproutServletWebServerFactory.class).getAccessLogPattern())
                .isNull());
    }

    @Test
    void threadTypeFollowsVirtualThreadsByDefault() {
        runner.run(context -> assertThat(context.getBean(SproutServletWebServerFactory.class).getServerConfig()
                .threadType()).isEqualTo(ThreadType.PLATFORM));
        runner.withPropertyValues("spring.threads.virtual.enabled=true").run(context -> assertThat(
                context.getBean(SproutServletWebServerFactory.class).getServerConfig().threadType())
                .isEqualTo(ThreadType.VIRTUAL));
    }

    @Test
    void invalidEnumValueFailsNamingThePropertyAndTheAllowedValues() {
        runner.withPropertyValues("sprout.server.execution-mode=turbo").run(context -> assertThat(context)
                .getFailure().hasStackTraceContaining("sprout.server.execution-mode")
                .hasStackTraceContaining("must be one of nio, hybrid"));
        runner.withPropertyValues("sprout.server.thread-type=green").run(context -> assertThat(context)
                .getFailure().hasStackTraceContaining("sprout.server.thread-type")
                .hasStackTraceContaining("must be one of platform, virtual"));
    }

    @Test
    void invalidNumberFailsNamingThePropertyAndTheRange() {
        runner.withPropertyValues("sprout.server.thread-pool-size=0").run(context -> assertThat(context)
                .getFailure().hasStackTraceContaining("sprout.server.thread-pool-size")
                .hasStackTraceContaining("must be between 1 and 32767"));
        runner.withPropertyValues("sprout.server.idle-timeout=0s").run(context -> assertThat(context)
                .getFailure().hasStackTraceContaining("sprout.server.idle-timeout")
                .hasStackTraceContaining("positive duration"));
    }

    @Test
    void invalidAccessLogPatternFailsNamingTheProperty() {
        runner.withPropertyValues("sprout.server.accesslog.enabled=true", "sprout.server.accesslog.format=%Z")
                .run(context -> assertThat(context).getFailure()
                        .hasStackTraceContaining("sprout.server.accesslog.format")
                        .hasStackTraceContaining("unknown code %Z"));
    }

    @Test
    void appliesConfigCustomizerBeans() {
        runner.withUserConfiguration(ConfigCustomizer.class).run(context -> assertThat(
                context.getBean(SproutServletWebServerFactory.class).getServerConfigCustomizers())
                .containsExactly(context.getBean(SproutServerConfigCustomizer.class)));
    }

    @Test
    void bindsMetricsOnlyWithAMeterRegistry() {
        runner.run(context -> assertThat(context).doesNotHaveBean(SproutMetricsBinder.class));
        runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
                .run(context -> assertThat(context).hasSingleBean(SproutMetricsBinder.class));
    }

    @Test
    void sslWithoutKeyMaterialFailsStartUpWithAClearMessageAndHttp2Starts() {
        WebApplicationContextRunner serving = new WebApplicationContextRunner(
                AnnotationConfigServletWebServerApplicationContext::new)
                .withConfiguration(AutoConfigurations.of(SproutServletWebServerAutoConfiguration.class))
                .withPropertyValues("server.port=0");
        // Boot's own refusal, as on Tomcat and Jetty: TLS is supported, but needs key material.
        serving.withPropertyValues("server.ssl.enabled=true").run(context -> assertThat(context).getFailure()
                .hasStackTraceContaining("SSL is enabled but no trust material is configured"));
        serving.withPropertyValues("server.ssl.key-store=classpath:tls/localhost.p12",
                "server.ssl.key-store-password=changeit").run(context -> assertThat(context).hasNotFailed());
        serving.withPropertyValues("server.http2.enabled=true").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(engineConfig(context).http2()).isEqualTo(Http2Config.DEFAULT);
        });
        serving.run(context -> assertThat(engineConfig(context).http2()).isNull());
    }

    @Test
    void bindsHttp2PropertiesWhenHttp2IsEnabled() {
        WebApplicationContextRunner serving = new WebApplicationContextRunner(
                AnnotationConfigServletWebServerApplicationContext::new)
                .withConfiguration(AutoConfigurations.of(SproutServletWebServerAutoConfiguration.class))
                .withPropertyValues("server.port=0", "server.http2.enabled=true");
        serving.withPropertyValues("sprout.server.http2.max-concurrent-streams=7",
                "sprout.server.http2.max-concurrent-stream-execution=5",
                "sprout.server.http2.initial-window-size=128KB", "sprout.server.http2.connection-window-size=2MB",
                "sprout.server.http2.max-frame-size=32KB", "sprout.server.http2.header-table-size=8KB",
                "sprout.server.http2.max-header-list-size=16KB", "sprout.server.http2.max-settings-entries=10",
                "sprout.server.http2.max-upgrade-body-size=1KB", "sprout.server.http2.max-resets=20",
                "sprout.server.http2.max-control-frames=30", "sprout.server.http2.max-empty-frames=40",
                "sprout.server.http2.rate-window=5s").run(context -> assertThat(engineConfig(context).http2())
                .isEqualTo(new Http2Config(7, 5, 128 * 1024, 2 * 1024 * 1024, 32 * 1024, 8 * 1024, 16 * 1024, 10,
                        1024, 20, 30, 40, Duration.ofSeconds(5))));
        // Unset, the header list limit follows the HTTP/1.1 header section limit.
        serving.withPropertyValues("server.max-http-request-header-size=20KB").run(context -> {
            assertThat(engineConfig(context).http2().maxHeaderListSize()).isEqualTo(20 * 1024);
            assertThat(engineConfig(context).limits().maxHeaderSectionSize()).isEqualTo(20 * 1024);
        });
        serving.withPropertyValues("sprout.server.http2.max-frame-size=1KB").run(context -> assertThat(context)
                .getFailure().hasStackTraceContaining("sprout.server.http2.max-frame-size")
                .hasStackTraceContaining("between 16384 and 16777215"));
        // Off, the sprout.server.http2.* values are not used, so not checked either.
        serving.withPropertyValues("server.http2.enabled=false", "sprout.server.http2.max-frame-size=1KB")
                .run(context -> assertThat(engineConfig(context).http2()).isNull());
    }

    private static ServerConfig engineConfig(AssertableWebApplicationContext context) {
        return ((SproutWebServer) ((WebServerApplicationContext) context.getSourceApplicationContext())
                .getWebServer()).config();
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnFactory {
        @Bean
        ServletWebServerFactory ownFactory() {
            return new SproutServletWebServerFactory(1234);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class ConfigCustomizer {
        @Bean
        SproutServerConfigCustomizer maxConnections() {
            return builder -> builder.maxConnections(7);
        }
    }
}
