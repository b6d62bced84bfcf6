package io.sprout.boot.autoconfigure;

import org.springframework.boot.context.properties.ConfigurationPropertiesBinding;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.server.autoconfigure.ServerProperties;
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
            SproutServerProperties sproutProperties, Environment environment) {
        return new SproutWebServerFactoryCustomizer(serverProperties, sproutProperties, environment);
    }
}
