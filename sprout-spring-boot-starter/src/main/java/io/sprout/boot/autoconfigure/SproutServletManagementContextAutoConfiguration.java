package io.sprout.boot.autoconfigure;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.actuate.autoconfigure.web.server.ConditionalOnManagementPort;
import org.springframework.boot.actuate.autoconfigure.web.server.ManagementContextFactory;
import org.springframework.boot.actuate.autoconfigure.web.server.ManagementPortType;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.server.servlet.ServletWebServerFactory;
import org.springframework.context.annotation.Bean;

/**
 * Lets Actuator run its management endpoints on a separate Sprout server when {@code management.server.port}
 * differs from {@code server.port}: the child context gets its own {@link SproutServletWebServerAutoConfiguration}.
 */
@AutoConfiguration(beforeName = "org.springframework.boot.tomcat.autoconfigure.actuate.web.server."
        + "TomcatServletManagementContextAutoConfiguration")
@ConditionalOnClass({ManagementContextFactory.class, io.sprout.engine.SproutServer.class})
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnManagementPort(ManagementPortType.DIFFERENT)
public final class SproutServletManagementContextAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    static ManagementContextFactory sproutServletWebChildContextFactory() {
        return new ManagementContextFactory(WebApplicationType.SERVLET, ServletWebServerFactory.class,
                SproutServletWebServerAutoConfiguration.class);
    }
}
