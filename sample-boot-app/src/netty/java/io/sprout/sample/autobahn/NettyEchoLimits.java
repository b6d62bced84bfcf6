package io.sprout.sample.autobahn;

import reactor.netty.http.server.WebsocketServerSpec;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;
import org.springframework.web.reactive.config.WebFluxConfigurer;
import org.springframework.web.reactive.socket.server.WebSocketService;
import org.springframework.web.reactive.socket.server.support.HandshakeWebSocketService;
import org.springframework.web.reactive.socket.server.upgrade.ReactorNettyRequestUpgradeStrategy;

/**
 * Reactor Netty's limit for WebFlux sessions, and with {@code autobahn.limits=raised} the limit raised to 16 MiB, so
 * {@code TARGET=reactive gatling/autobahn/run.sh netty} compares with Sprout under the same limits. Reactor Netty has
 * one limit for both kinds: Spring aggregates a message's frames up to the strategy's largest frame payload (64 KiB
 * unless raised, {@code WebsocketServerSpec}); Boot has no property for it, so a user raises it as here, with a
 * strategy of their own.
 */
@Configuration(proxyBeanMethods = false)
@Profile("autobahn")
class NettyEchoLimits {

    /** Every message of the suite's size cases fits: 9.1.6 and 9.2.6 send exactly this many bytes. */
    static final int RAISED_LIMIT = 16 * 1024 * 1024;

    private final int limit;

    NettyEchoLimits(@Value("${autobahn.limits:default}") String limits) {
        this.limit = "raised".equals(limits) ? RAISED_LIMIT
                : WebsocketServerSpec.builder().build().maxFramePayloadLength();
    }

    @Bean
    EchoLimits echoLimits() {
        return new EchoLimits(this.limit, this.limit);
    }

    @Bean
    WebFluxConfigurer nettyWebSocketLimits() {
        int limit = this.limit;
        return new WebFluxConfigurer() {
            @Override
            public WebSocketService getWebSocketService() {
                return new HandshakeWebSocketService(new ReactorNettyRequestUpgradeStrategy(
                        () -> WebsocketServerSpec.builder().maxFramePayloadLength(limit)));
            }
        };
    }

}
