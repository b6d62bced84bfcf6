package io.sprout.sample;

import java.util.Map;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.reactive.handler.SimpleUrlHandlerMapping;

/**
 * {@code /ws/echo} and {@code /ws/broadcast} on WebFlux: Spring's reactive {@code WebSocketHandler}s, upgraded by the
 * {@code WebSocketHandlerAdapter} that WebFlux's configuration already provides, with the server's own upgrade
 * strategy (on Reactor Netty, Netty's WebSocket codec; on Sprout, the starter's {@code SproutRequestUpgradeStrategy}
 * over the engine's). The mapping is ordered before the annotated controllers'.
 */
@Configuration(proxyBeanMethods = false)
class WebSocketConfiguration {

    @Bean
    HandlerMapping webSocketMapping(SessionRegistry registry) {
        return new SimpleUrlHandlerMapping(Map.of("/ws/echo", new EchoWebSocketHandler(registry), "/ws/broadcast",
                new BroadcastWebSocketHandler(registry)), -1);
    }

}
