package io.sprout.boot.web;

import io.sprout.boot.autoconfigure.SproutServletWebServerAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * What a Spring Boot application on Sprout prints when it starts, in every engine combination: the started line,
 * and for every way Sprout refuses to start, Boot's "APPLICATION FAILED TO START" report with a description and an
 * action (through Boot's analyzers or the starter's), never a bare stack trace.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("io.sprout.boot.web.Engines#all")
@ExtendWith(OutputCaptureExtension.class)
class StartupReportIT {

    @Parameter
    Engines engines;

    /** The smallest servlet application: Sprout's auto-configuration and nothing else. */
    @SpringBootConfiguration(proxyBeanMethods = false)
    @ImportAutoConfiguration(SproutServletWebServerAutoConfiguration.class)
    static class Application {
    }

    /** Listens on an additional port given by {@code test.additional-port}. */
    @SpringBootConfiguration(proxyBeanMethods = false)
    @ImportAutoConfiguration(SproutServletWebServerAutoConfiguration.class)
    static class TwoPortApplication {

        @Bean
        WebServerFactoryCustomizer<SproutServletWebServerFactory> additionalPort(
                Environment environment) {
            return factory -> factory.addAdditionalPorts(
                    environment.getRequiredProperty("test.additional-port", Integer.class));
        }
    }

    /** Builds an engine configuration no property can express: a worker pool of none. */
    @SpringBootConfiguration(proxyBeanMethods = false)
    @ImportAutoConfiguration(SproutServletWebServerAutoConfiguration.class)
    static class BrokenCustomizerApplication {

        @Bean
        SproutServerConfigCustomizer noWorkers() {
            return builder -> builder.threadPoolSize(0);
        }
    }

    private ConfigurableApplicationContext run(Class<?> application, String... properties) {
        List<String> all = new ArrayList<>(List.of("server.port=0", "spring.main.banner-mode=off",
                "spring.main.register-shutdown-hook=false", "sprout.server.execution-mode=" + mode(),
                "sprout.server.thread-type=" + engines.threads().name().toLowerCase(Locale.ROOT),
                "sprout.server.thread-pool-size=16", "sprout.server.selector-threads=1"));
        all.addAll(List.of(properties));
        return new SpringApplicationBuilder(application).web(WebApplicationType.SERVLET)
                .properties(all.toArray(String[]::new)).run();
    }

    private String mode() {
        return engines.mode().name().toLowerCase(Locale.ROOT);
    }

    private void assertFailsToStart(Class<?> application, String... properties) {
        assertThatException().isThrownBy(() -> run(application, properties).close());
    }

    private static void assertReport(CapturedOutput output, String description, String action) {
        assertThat(output).contains("APPLICATION FAILED TO START", "Description:", description, "Action:", action);
    }

    @Test
    void logsTheStartedLineWithTheEngineInEffect(CapturedOutput output) {
        try (ConfigurableApplicationContext context = run(Application.class)) {
            int port = ((WebServerApplicationContext) context).getWebServer().getPort();
            String threads = switch (engines.threads()) {
                case PLATFORM -> "platform threads, 16 workers";
                case VIRTUAL -> "virtual threads";
            };
            assertThat(output).contains("Sprout started on port " + port + " (http) with context path '/' \u2014 "
                    + mode() + ", " + threads);
        }
    }

    @Test
    void aBadExecutionModeIsReportedWithTheAllowedValues(CapturedOutput output) {
        assertFailsToStart(Application.class, "sprout.server.execution-mode=warp-drive");
        assertReport(output, "sprout.server.execution-mode", "Update your application's configuration");
        assertThat(output).contains("warp-drive", "HYBRID", "NIO").doesNotContain("Sprout started");
    }

    @Test
    void aValueTheEngineRefusesIsReportedByItsProperty(CapturedOutput output) {
        assertFailsToStart(Application.class, "sprout.server.thread-pool-size=0");
        assertReport(output, "Invalid value '0' for configuration property 'sprout.server.thread-pool-size'",
                "Review the value of the property");
        assertThat(output).contains("between 1 and 32767");
    }

    @Test
    void anEngineConfigurationNoPropertySetIsReportedByItsField(CapturedOutput output) {
        assertFailsToStart(BrokenCustomizerApplication.class);
        assertReport(output, "The Sprout web server refused its engine configuration: threadPoolSize must be "
                + "between 1 and 32767 but was 0", "Correct 'threadPoolSize' where the application sets it");
    }

    @Test
    void http2StartsAndTheStartedLineSaysH2c(CapturedOutput output) {
        try (ConfigurableApplicationContext context = run(Application.class, "server.http2.enabled=true")) {
            int port = ((WebServerApplicationContext) context).getWebServer().getPort();
            assertThat(output).contains("Sprout started on port " + port + " (http, h2c) with context path '/'");
        }
    }

    @Test
    void aBadHttp2ValueIsReportedByItsProperty(CapturedOutput output) {
        assertFailsToStart(Application.class, "server.http2.enabled=true",
                "sprout.server.http2.max-concurrent-streams=0");
        assertReport(output, "Invalid value '0' for configuration property "
                + "'sprout.server.http2.max-concurrent-streams'", "Review the value of the property");
        assertThat(output).contains("between 1 and 1048576").doesNotContain("Sprout started");
    }

    @Test
    void sslSessionTrackingIsReportedWithTheAlternatives(CapturedOutput output) {
        assertFailsToStart(Application.class, "server.servlet.session.tracking-modes=ssl");
        assertReport(output, "cannot honour session tracking mode SSL", "Track sessions by cookie");
    }

    @Test
    void aTakenAdditionalPortIsReportedAsPortInUse(CapturedOutput output) throws IOException {
        try (ServerSocket taken = new ServerSocket(0)) {
            assertFailsToStart(TwoPortApplication.class, "test.additional-port=" + taken.getLocalPort());
            assertReport(output, "Port " + taken.getLocalPort() + " was already in use",
                    "Identify and stop the process that's listening on port " + taken.getLocalPort());
        }
    }

    @Test
    void anAddressNotOnThisHostIsReportedWithThePort(CapturedOutput output) {
        assertFailsToStart(Application.class, "server.address=192.0.2.1");
        assertReport(output, "The Sprout web server could not listen on port 0",
                "Check that server.address is an address of this host");
    }
}
