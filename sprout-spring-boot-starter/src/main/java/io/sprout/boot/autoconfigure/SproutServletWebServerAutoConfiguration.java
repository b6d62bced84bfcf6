package io.sprout.boot.autoconfigure;

import io.sprout.boot.web.SproutServerConfigCustomizer;
import io.sprout.boot.web.SproutServletWebServerFactory;
import io.sprout.engine.SproutServer;
import jakarta.servlet.ServletRequest;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.SearchStrategy;
import org.springframework.boot.web.server.autoconfigure.servlet.ServletWebServerConfiguration;
import org.springframework.boot.web.server.servlet.ServletWebServerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * Runs a servlet web application on Sprout. Ordered before Boot's Tomcat and Jetty auto-configurations, so Sprout
 * wins when several servers are on the class path; backs off when the application defines its own
 * {@link ServletWebServerFactory}. {@link ServletWebServerConfiguration} maps {@code server.*} and registers the
 * customizer and error-page post-processors, as for Boot's own servers.
 */
@AutoConfiguration(beforeName = {
        "org.springframework.boot.tomcat.autoconfigure.servlet.TomcatServletWebServerAutoConfiguration",
        "org.springframework.boot.jetty.autoconfigure.servlet.JettyServletWebServerAutoConfiguration"})
@ConditionalOnClass({ServletRequest.class, SproutServer.class})
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@Import({ServletWebServerConfiguration.class, SproutEngineConfiguration.class})
public final class SproutServletWebServerAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(value = ServletWebServerFactory.class, search = SearchStrategy.CURRENT)
    SproutServletWebServerFactory sproutServletWebServerFactory(
            ObjectProvider<SproutServerConfigCustomizer> configCustomizers) {
        SproutServletWebServerFactory factory = new SproutServletWebServerFactory();
        factory.getServerConfigCustomizers().addAll(configCustomizers.orderedStream().toList());
        return factory;
    }
}
