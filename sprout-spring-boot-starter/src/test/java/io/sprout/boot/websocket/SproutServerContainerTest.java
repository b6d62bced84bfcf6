package io.sprout.boot.websocket;

import io.sprout.boot.servlet.UnsupportedFeatureException;
import io.sprout.engine.WebSocketConfig;
import jakarta.websocket.DeploymentException;
import jakarta.websocket.Extension;
import jakarta.websocket.OnMessage;
import jakarta.websocket.server.ServerEndpoint;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Deployment rules and the parts of the container that need no connection. */
class SproutServerContainerTest {

    private final SproutServerContainer container = new SproutServerContainer(WebSocketConfig.DEFAULT);

    @ServerEndpoint("/echo/{name}")
    public static class Echo {
        @OnMessage
        public String echo(String message) {
            return message;
        }
    }

    @ServerEndpoint("/broken")
    public static class Broken {
        @OnMessage
        public void message(String one, String two) {
        }
    }

    public static class NotAnEndpoint {
    }

    @Test
    void deploysAnnotatedEndpointsAndMatchesTheirPaths() throws Exception {
        container.addEndpoint(Echo.class);

        EndpointRegistry.Match match = container.match("/echo/alice");
        assertThat(match.config().getEndpointClass()).isEqualTo(Echo.class);
        assertThat(match.pathParameters()).containsEntry("name", "alice");
        assertThat(container.match("/other")).isNull();
    }

    @Test
    void refusesClassesThatAreNoEndpoint() {
        assertThatThrownBy(() -> container.addEndpoint(NotAnEndpoint.class))
                .isInstanceOf(DeploymentException.class).hasMessageContaining("@ServerEndpoint");
    }

    @Test
    void refusesAnInvalidAnnotatedEndpoint() {
        assertThatThrownBy(() -> container.addEndpoint(Broken.class))
                .isInstanceOf(DeploymentException.class).hasMessageContaining("Broken.message");
    }

    @Test
    void refusesTheSamePathTwice() throws Exception {
        container.addEndpoint(Echo.class);
        assertThatThrownBy(() -> container.addEndpoint(Echo.class)).isInstanceOf(DeploymentException.class);
    }

    @Test
    void installsPermessageDeflateOnlyWhenCompressionIsOn() {
        assertThat(container.getInstalledExtensions()).extracting(Extension::getName)
                .containsExactly("permessage-deflate");
        assertThat(new SproutServerContainer(WebSocketConfig.DEFAULT.withCompression(false))
                .getInstalledExtensions()).isEmpty();
    }

    @Test
    void defaultsComeFromTheEngineConfig() {
        SproutServerContainer configured = new SproutServerContainer(WebSocketConfig.DEFAULT
                .withMaxMessageSizes(1000, 2000).withIdleTimeout(Duration.ofSeconds(9)));
        assertThat(configured.getDefaultMaxTextMessageBufferSize()).isEqualTo(1000);
        assertThat(configured.getDefaultMaxBinaryMessageBufferSize()).isEqualTo(2000);
        assertThat(configured.getDefaultMaxSessionIdleTimeout()).isEqualTo(9000);
        assertThatThrownBy(() -> configured.setDefaultMaxTextMessageBufferSize(0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theClientSideIsRefusedNamingSprout() {
        assertThatThrownBy(() -> container.connectToServer(Echo.class, URI.create("ws://localhost/")))
                .isInstanceOf(UnsupportedFeatureException.class)
                .hasMessageContaining("Sprout").hasMessageContaining("connectToServer");
    }
}
