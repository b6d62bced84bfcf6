package io.sprout.boot.autoconfigure;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.actuate.autoconfigure.web.server.ConditionalOnManagementPort;
import org.springframework.boot.actuate.autoconfigure.web.server.ManagementContextFactory;
import org.springframework.boot.actuate.autoconfigure.web.server.ManagementPortType;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.server.reactive.ReactiveWebServerFactory;
import org.springframework.context.annotation.Bean;

/**
 * Lets Actuator run its management endpoints on a separate Sprout server when {@code management.server.port}
 * differs from {@code server.port} in a WebFlux application: the child context gets its own
 * {@link SproutReactiveWebServerAutoConfiguration}.
 */
@AutoConfiguration(beforeName = {
        "org.springframework.boot.reactor.netty.autoconfigure.actuate.web.server."
                + "NettyReactiveManagementContextAutoConfiguration",
        "org.springframework.boot.tomcat.autoconfigure.actuate.web.server."
                + "TomcatReactiveManagementContextAutoConfiguration"})
@ConditionalOnClass({ManagementContextFactory.class, io.sprout.engine.SproutServer.class})
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnManagementPort(ManagementPortType.DIFFERENT)
public final class SproutReactiveManagementContextAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    static ManagementContextFactory sproutReactiveWebChildContextFactory() {
        return new ManagementContextFactory(WebApplicationType.REACTIVE, ReactiveWebServerFactory.class,
                SproutReactiveWebServerAutoConfiguration.class);
    }
}
