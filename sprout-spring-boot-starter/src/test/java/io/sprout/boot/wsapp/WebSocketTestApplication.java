package io.sprout.boot.wsapp;

import jakarta.websocket.server.ServerEndpointConfig;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.messaging.handler.annotation.MessageMapping;
import org.springframework.messaging.handler.annotation.SendTo;
import org.springframework.messaging.simp.config.MessageBrokerRegistry;
import org.springframework.stereotype.Controller;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.config.annotation.EnableWebSocket;
import org.springframework.web.socket.config.annotation.EnableWebSocketMessageBroker;
import org.springframework.web.socket.config.annotation.StompEndpointRegistry;
import org.springframework.web.socket.config.annotation.WebSocketConfigurer;
import org.springframework.web.socket.config.annotation.WebSocketHandlerRegistry;
import org.springframework.web.socket.config.annotation.WebSocketMessageBrokerConfigurer;
import org.springframework.web.socket.handler.TextWebSocketHandler;
import org.springframework.web.socket.server.standard.ServerEndpointExporter;
import org.springframework.web.socket.server.standard.ServletServerContainerFactoryBean;

/**
 * A WebSocket application as Spring's guides write one: STOMP over a simple broker (gs-messaging-stomp-websocket),
 * an {@code @EnableWebSocket} echo handler with a SockJS twin, and {@code @ServerEndpoint} classes exported by
 * {@link ServerEndpointExporter}: a chat with rooms, an endpoint with an origin check and one with a size limit.
 */
@SpringBootApplication
public class WebSocketTestApplication {

    /** The container's limits, set as Spring documents it: above the 64 KiB Sprout uses by default. */
    public static final int CONTAINER_LIMIT = 256 * 1024;

    /**
     * Sprout's own default for text messages, set lower than the container's: the container's setting wins. Both
     * test contracts set it, so they share one application context per combination.
     */
    public static final String SPROUT_TEXT_LIMIT = "sprout.server.websocket.max-text-message-size=32KB";

    public record HelloMessage(String name) {
    }

    public record Greeting(String content) {
    }

    @Bean
    ServerEndpointExporter serverEndpointExporter() {
        ServerEndpointExporter exporter = new ServerEndpointExporter();
        exporter.setAnnotatedEndpointClasses(ChatEndpoint.class, GuardedEndpoint.class, LimitedEndpoint.class,
                FeaturesEndpoint.class, EchoEndpoint.class, PartsEndpoint.class);
        return exporter;
    }

    @Bean
    ServletServerContainerFactoryBean webSocketContainer() {
        ServletServerContainerFactoryBean container = new ServletServerContainerFactoryBean();
        container.setMaxTextMessageBufferSize(CONTAINER_LIMIT);
        container.setMaxBinaryMessageBufferSize(CONTAINER_LIMIT);
        container.setMaxSessionIdleTimeout(120_000L);
        container.setAsyncSendTimeout(7_000L);
        return container;
    }

    @Bean
    UserEchoHandler userEchoHandler() {
        return new UserEchoHandler();
    }

    @Bean
    ServerEndpointConfig programmaticEndpoint() {
        return ProgrammaticEndpoint.config();
    }

    @Configuration
    @EnableWebSocketMessageBroker
    static class StompConfig implements WebSocketMessageBrokerConfigurer {

        @Override
        public void configureMessageBroker(MessageBrokerRegistry registry) {
            registry.enableSimpleBroker("/topic");
            registry.setApplicationDestinationPrefixes("/app");
        }

        @Override
        public void registerStompEndpoints(StompEndpointRegistry registry) {
            registry.addEndpoint("/gs-guide-websocket");
        }
    }

    @Controller
    static class GreetingController {

        @MessageMapping("/hello")
        @SendTo("/topic/greetings")
        Greeting greeting(HelloMessage message) {
            return new Greeting("Hello, " + message.name() + "!");
        }
    }

    @Configuration
    @EnableWebSocket
    static class EchoConfig implements WebSocketConfigurer {

        private final UserEchoHandler userEcho;

        EchoConfig(UserEchoHandler userEcho) {
            this.userEcho = userEcho;
        }

        @Override
        public void registerWebSocketHandlers(WebSocketHandlerRegistry registry) {
            registry.addHandler(new EchoHandler(), "/echo");
            registry.addHandler(userEcho, "/user-echo");
            registry.addHandler(new PartsHandler(), "/parts");
            registry.addHandler(new EchoHandler(), "/sockjs-echo").withSockJS();
        }
    }

    static class EchoHandler extends TextWebSocketHandler {

        @Override
        protected void handleTextMessage(WebSocketSession session, TextMessage message) throws Exception {
            session.sendMessage(new TextMessage("echo: " + message.getPayload()));
        }
    }
}
