package io.sprout.boot.autoconfigure;

import org.springframework.boot.context.properties.ConfigurationPropertiesBinding;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.server.autoconfigure.ServerProperties;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * What the servlet and the reactive auto-configurations share: {@code sprout.server.*} bound (with the engine's
 * enums read case-insensitively) and applied to whichever Sprout factory the application runs on.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(SproutServerProperties.class)
class SproutEngineConfiguration {

    @Bean
    @ConfigurationPropertiesBinding
    static EngineEnumConverters.ExecutionModeConverter sproutExecutionModeConverter() {
        return new EngineEnumConverters.ExecutionModeConverter();
    }

    @Bean
    @ConfigurationPropertiesBinding
    static EngineEnumConverters.ThreadTypeConverter sproutThreadTypeConverter() {
        return new EngineEnumConverters.ThreadTypeConverter();
    }

    @Bean
    SproutWebServerFactoryCustomizer sproutWebServerFactoryCustomizer(ServerProperties serverProperties,
            SproutServerProperties sproutProperties, Environment environment, ApplicationContext context) {
        // The management server (Actuator on its own port) runs in a child context with this configuration too, but
        // the warm-up's paths are the application's.
        boolean managementServer = WebServerApplicationContext.hasServerNamespace(context, "management");
        return new SproutWebServerFactoryCustomizer(serverProperties, sproutProperties, environment,
                !managementServer);
    }
}
