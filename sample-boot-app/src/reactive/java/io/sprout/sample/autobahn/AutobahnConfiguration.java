package io.sprout.sample.autobahn;

import java.util.Map;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.reactive.handler.SimpleUrlHandlerMapping;

/**
 * {@code /autobahn/reactive} ({@link ReactiveEchoHandler}), mapped the way WebFlux's reference documentation shows:
 * a {@link SimpleUrlHandlerMapping} ordered before the annotated controllers, upgraded by the
 * {@code WebSocketHandlerAdapter} and handshake service that WebFlux's configuration provides.
 */
@Configuration(proxyBeanMethods = false)
@Profile("autobahn")
class AutobahnConfiguration {

    @Bean
    HandlerMapping autobahnMapping() {
        return new SimpleUrlHandlerMapping(Map.of("/autobahn/reactive", new ReactiveEchoHandler()), -1);
    }

}
