package io.sprout.sample.autobahn;

import io.sprout.boot.autoconfigure.SproutServerProperties;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;

/**
 * Sprout's limits for WebFlux sessions: {@code sprout.server.websocket.max-text-message-size} and
 * {@code max-binary-message-size} (64 KiB by default), read from the same properties bean Sprout configures its
 * sessions from. {@code gatling/autobahn/run.sh} raises both to 16 MiB on the command line.
 */
@Configuration(proxyBeanMethods = false)
@Profile("autobahn")
class SproutEchoLimits {

    @Bean
    EchoLimits echoLimits(SproutServerProperties properties) {
        SproutServerProperties.Websocket websocket = properties.getWebsocket();
        return new EchoLimits(Math.toIntExact(websocket.getMaxTextMessageSize().toBytes()),
                Math.toIntExact(websocket.getMaxBinaryMessageSize().toBytes()));
    }

}
