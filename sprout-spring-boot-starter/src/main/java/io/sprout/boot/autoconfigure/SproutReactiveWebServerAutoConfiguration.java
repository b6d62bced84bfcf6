package io.sprout.boot.autoconfigure;

import io.sprout.boot.web.SproutReactiveWebServerFactory;
import io.sprout.boot.web.SproutServerConfigCustomizer;
import io.sprout.engine.SproutServer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.SearchStrategy;
import org.springframework.boot.web.server.autoconfigure.reactive.ReactiveWebServerConfiguration;
import org.springframework.boot.web.server.reactive.ReactiveWebServerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.ReactiveHttpInputMessage;
import reactor.core.publisher.Mono;

/**
 * Runs a WebFlux application on Sprout. Ordered before Boot's Reactor Netty, Tomcat and Jetty reactive
 * auto-configurations, so Sprout wins when one of them is still on the class path; backs off when the application
 * defines its own {@link ReactiveWebServerFactory}. {@link ReactiveWebServerConfiguration} maps {@code server.*} and
 * registers the customizer post-processor, as for Boot's own servers; {@code sprout.server.*} applies as for a
 * servlet application.
 */
@AutoConfiguration(beforeName = {
        "org.springframework.boot.reactor.netty.autoconfigure.NettyReactiveWebServerAutoConfiguration",
        "org.springframework.boot.tomcat.autoconfigure.reactive.TomcatReactiveWebServerAutoConfiguration",
        "org.springframework.boot.jetty.autoconfigure.reactive.JettyReactiveWebServerAutoConfiguration"})
@ConditionalOnClass({ReactiveHttpInputMessage.class, Mono.class, SproutServer.class})
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@Import({ReactiveWebServerConfiguration.class, SproutEngineConfiguration.class})
public final class SproutReactiveWebServerAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(value = ReactiveWebServerFactory.class, search = SearchStrategy.CURRENT)
    SproutReactiveWebServerFactory sproutReactiveWebServerFactory(
            ObjectProvider<SproutServerConfigCustomizer> configCustomizers) {
        SproutReactiveWebServerFactory factory = new SproutReactiveWebServerFactory();
        factory.getServerConfigCustomizers().addAll(configCustomizers.orderedStream().toList());
        return factory;
    }
}
