package io.sprout.sample.autobahn;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;
import org.springframework.web.socket.config.annotation.EnableWebSocket;
import org.springframework.web.socket.config.annotation.WebSocketConfigurer;
import org.springframework.web.socket.config.annotation.WebSocketHandlerRegistry;
import org.springframework.web.socket.server.standard.ServerEndpointExporter;
import org.springframework.web.socket.server.standard.ServletServerContainerFactoryBean;

/**
 * The three echoes under test, registered the way the reference documentation shows: {@code /autobahn/spring}
 * ({@link SpringEchoHandler}), {@code /autobahn/endpoint} ({@link EchoEndpoint}, exported by
 * {@link ServerEndpointExporter}) and {@code /autobahn/default-limits} ({@link TextEchoHandler}). Handlers keep
 * Spring's default handshake (the server's own upgrade strategy) and decorators, as a user's would.
 */
@Configuration(proxyBeanMethods = false)
@Profile("autobahn")
@EnableWebSocket
class AutobahnConfiguration implements WebSocketConfigurer {

    /** Every message of the suite's size cases fits: 9.1.6 and 9.2.6 send exactly this many bytes. */
    static final int RAISED_LIMIT = 16 * 1024 * 1024;

    @Override
    public void registerWebSocketHandlers(WebSocketHandlerRegistry handlers) {
        handlers.addHandler(new SpringEchoHandler(), "/autobahn/spring");
        handlers.addHandler(new TextEchoHandler(), "/autobahn/default-limits");
    }

    @Bean
    ServerEndpointExporter autobahnEndpointExporter() {
        ServerEndpointExporter exporter = new ServerEndpointExporter();
        exporter.setAnnotatedEndpointClasses(EchoEndpoint.class);
        return exporter;
    }

    /** The container-wide limits, as Spring's documentation raises them; absent, the server's defaults apply. */
    @Bean
    @ConditionalOnProperty(name = "autobahn.limits", havingValue = "raised")
    ServletServerContainerFactoryBean raisedContainerLimits() {
        ServletServerContainerFactoryBean container = new ServletServerContainerFactoryBean();
        container.setMaxTextMessageBufferSize(RAISED_LIMIT);
        container.setMaxBinaryMessageBufferSize(RAISED_LIMIT);
        return container;
    }

}
