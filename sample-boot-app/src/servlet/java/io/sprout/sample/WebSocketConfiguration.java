package io.sprout.sample;

import org.springframework.context.annotation.Configuration;
import org.springframework.web.socket.config.annotation.EnableWebSocket;
import org.springframework.web.socket.config.annotation.WebSocketConfigurer;
import org.springframework.web.socket.config.annotation.WebSocketHandlerRegistry;
import org.springframework.web.socket.server.standard.StandardWebSocketUpgradeStrategy;
import org.springframework.web.socket.server.support.DefaultHandshakeHandler;

/**
 * {@code /ws/echo} and {@code /ws/broadcast} on Spring MVC. The handshake always goes through the standard upgrade
 * strategy, that is the container's own Jakarta WebSocket implementation ({@code ServerContainer
 * .upgradeHttpToWebSocket}): Tomcat's, Jetty's (Spring would otherwise pick Jetty's native API there) and Sprout's,
 * so the comparison measures each server's JSR-356 container.
 */
@Configuration(proxyBeanMethods = false)
@EnableWebSocket
class WebSocketConfiguration implements WebSocketConfigurer {

    private final SessionRegistry registry;

    WebSocketConfiguration(SessionRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void registerWebSocketHandlers(WebSocketHandlerRegistry handlers) {
        DefaultHandshakeHandler handshake = new DefaultHandshakeHandler(new StandardWebSocketUpgradeStrategy());
        handlers.addHandler(new EchoWebSocketHandler(this.registry), "/ws/echo").setHandshakeHandler(handshake);
        handlers.addHandler(new BroadcastWebSocketHandler(this.registry), "/ws/broadcast")
            .setHandshakeHandler(handshake);
    }

}
