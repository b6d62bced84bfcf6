package io.sprout.boot.autoconfigure;

import io.sprout.boot.reactive.websocket.SproutRequestUpgradeStrategy;
import io.sprout.boot.web.SproutReactiveWebServerFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.web.reactive.config.WebFluxConfigurer;
import org.springframework.web.reactive.socket.server.RequestUpgradeStrategy;
import org.springframework.web.reactive.socket.server.WebSocketService;
import org.springframework.web.reactive.socket.server.support.HandshakeWebSocketService;

/**
 * WebFlux WebSocket on Sprout with nothing to configure: a {@code WebSocketHandler} mapped with a
 * {@code SimpleUrlHandlerMapping} runs on {@link SproutRequestUpgradeStrategy}, with the limits of
 * {@code sprout.server.websocket.*} and its sessions counted for the {@code sprout.websocket.*} meters. Spring picks
 * its default strategy by the classes present, Reactor Netty's whenever that is on the class path, so the strategy
 * is given to WebFlux's configuration through a {@link WebFluxConfigurer}. An application with a
 * {@link WebSocketService} bean of its own configures WebFlux with it itself, and this backs off; the strategy stays a
 * bean, to build such a service on.
 */
@AutoConfiguration(after = SproutReactiveWebServerAutoConfiguration.class)
@ConditionalOnClass({RequestUpgradeStrategy.class, WebFluxConfigurer.class})
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnBean(SproutReactiveWebServerFactory.class)
public final class SproutReactiveWebSocketAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(RequestUpgradeStrategy.class)
    SproutRequestUpgradeStrategy sproutRequestUpgradeStrategy(SproutReactiveWebServerFactory factory) {
        return new SproutRequestUpgradeStrategy(factory.getWebSocketConfig(), factory.getWebSocketStats());
    }

    @Bean
    @ConditionalOnMissingBean(WebSocketService.class)
    WebFluxConfigurer sproutWebSocketService(RequestUpgradeStrategy strategy) {
        WebSocketService service = new HandshakeWebSocketService(strategy);
        return new WebFluxConfigurer() {
            @Override
            public WebSocketService getWebSocketService() {
                return service;
            }
        };
    }
}
