package io.sprout.boot.reactive.websocket;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.reactive.handler.SimpleUrlHandlerMapping;
import org.springframework.web.reactive.socket.WebSocketHandler;
import org.springframework.web.reactive.socket.WebSocketMessage;
import reactor.core.publisher.Flux;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The {@code sprout.websocket.*} meters of a Boot WebFlux application on Sprout: the same meters, with the same
 * names, tags and descriptions, as a servlet application's Jakarta container has, counting the reactive sessions
 * and their whole messages both ways.
 */
class ReactiveWebSocketMetricsIT {

    private static final Duration PATIENCE = Duration.ofSeconds(30);
    /** Non-ASCII, so that text that went through the bytes path unchanged shows it. */
    private static final String TEXT = "héllo ✓";

    private ConfigurableApplicationContext context;
    private MeterRegistry meters;
    private int port;

    @SpringBootConfiguration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class MeteredApplication {

        /** {@code /echo} echoes; {@code /greet} sends two messages of its own first, then echoes. */
        @Bean
        HandlerMapping webSocketMapping() {
            WebSocketHandler echo = session -> session.send(session.receive().map(WebSocketMessage::retain));
            WebSocketHandler greet = session -> session.send(Flux.concat(
                    Flux.just(session.textMessage("hello"), session.textMessage("again")),
                    session.receive().map(WebSocketMessage::retain)));
            return new SimpleUrlHandlerMapping(Map.of("/echo", echo, "/greet", greet), -1);
        }
    }

    @BeforeEach
    void start() {
        context = new SpringApplicationBuilder(MeteredApplication.class).web(WebApplicationType.REACTIVE)
                .run("--server.port=0", "--server.address=127.0.0.1", "--spring.main.banner-mode=off");
        port = ((WebServerApplicationContext) context).getWebServer().getPort();
        meters = context.getBean(MeterRegistry.class);
    }

    @AfterEach
    void stop() {
        if (context != null) {
            context.close();
        }
    }

    @Test
    void metersCountReactiveSessionsAndMessagesAndTheGaugeFallsBackToZero() throws Exception {
        assertThat(sessions()).isZero();
        RecordingClient echoed = new RecordingClient();
        WebSocket echo = connect("/echo", echoed);
        RecordingClient greeted = new RecordingClient();
        WebSocket greet = connect("/greet", greeted);
        assertThat(greeted.next()).isEqualTo("text:hello");
        assertThat(greeted.next()).isEqualTo("text:again");
        await().atMost(PATIENCE).until(() -> sessions() == 2);

        echo.sendText(TEXT, true).get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        assertThat(echoed.next()).isEqualTo("text:" + TEXT);
        echo.sendBinary(ByteBuffer.wrap(new byte[] {1, 2, 3}), true).get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        assertThat(echoed.next()).isEqualTo("binary:3");
        greet.sendText("frag", false).get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        greet.sendText("mented", true).get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        assertThat(greeted.next()).isEqualTo("text:fragmented");
        // A Ping is answered by the engine and is no message.
        echo.sendPing(ByteBuffer.wrap(new byte[] {9})).get(PATIENCE.toSeconds(), TimeUnit.SECONDS);

        assertThat(messages("in").count()).isEqualTo(3);
        assertThat(messages("out").count()).isEqualTo(5);
        assertThat(sessions()).isEqualTo(2);

        echo.sendClose(1000, "done").get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        assertThat(echoed.next()).isEqualTo("close:1000");
        greet.sendClose(1000, "done").get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        assertThat(greeted.next()).isEqualTo("close:1000");
        await().atMost(PATIENCE).until(() -> sessions() == 0);
        assertThat(messages("in").count()).isEqualTo(3);
        assertThat(messages("out").count()).isEqualTo(5);
    }

    @Test
    void theMetersAreDescribedAsTheJakartaContainersAre() {
        Gauge gauge = meters.get("sprout.websocket.sessions").gauge();
        assertThat(gauge.getId().getDescription()).isEqualTo("WebSocket sessions open now");
        assertThat(gauge.getId().getBaseUnit()).isEqualTo("sessions");
        assertThat(messages("in").getId().getDescription()).isEqualTo("WebSocket messages received");
        assertThat(messages("out").getId().getDescription()).isEqualTo("WebSocket messages sent");
        assertThat(messages("out").getId().getBaseUnit()).isEqualTo("messages");
    }

    private double sessions() {
        return meters.get("sprout.websocket.sessions").gauge().value();
    }

    private FunctionCounter messages(String direction) {
        return meters.get("sprout.websocket.messages").tag("direction", direction).functionCounter();
    }

    private WebSocket connect(String path, RecordingClient client) throws Exception {
        return HttpClient.newHttpClient().newWebSocketBuilder()
                .buildAsync(URI.create("ws://127.0.0.1:" + port + path), client)
                .get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
    }
}
