package io.sprout.boot.websocket;

import jakarta.websocket.DeploymentException;
import jakarta.websocket.Endpoint;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.Session;
import jakarta.websocket.server.ServerEndpointConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Endpoint paths as level 1 URI templates, and the specification's matching precedence (§3.1.1). */
class UriTemplateTest {

    @Test
    void literalPathMatchesOnlyItself() throws Exception {
        UriTemplate template = UriTemplate.parse("/a/b");
        assertThat(template.match("/a/b")).isEmpty();
        assertThat(template.match("/a/c")).isNull();
        assertThat(template.match("/a/b/c")).isNull();
        assertThat(template.match("/a")).isNull();
    }

    @Test
    void variablesTakeWholeSegments() throws Exception {
        UriTemplate template = UriTemplate.parse("/chat/{room}/{user}");
        assertThat(template.match("/chat/lobby/alice")).isEqualTo(Map.of("room", "lobby", "user", "alice"));
        assertThat(template.match("/chat/lobby")).isNull();
        assertThat(template.match("/chat//alice")).as("an empty segment is no value").isNull();
        assertThat(template.variables()).containsExactly("room", "user");
    }

    @Test
    void rootPathMatchesRootOnly() throws Exception {
        UriTemplate root = UriTemplate.parse("/");
        assertThat(root.match("/")).isEmpty();
        assertThat(root.match("/a")).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"a/b", "/a/{x", "/a/x}", "/a/pre{x}", "/a/{}", "/a/{x}/{x}", "/a//b", "/{a}{b}"})
    void rejectsInvalidTemplates(String path) {
        assertThatThrownBy(() -> UriTemplate.parse(path)).isInstanceOf(DeploymentException.class)
                .hasMessageContaining(path);
    }

    @Test
    void exactMatchWinsOverTemplates() throws Exception {
        EndpointRegistry registry = registry("/a/{x}", "/a/b", "/{x}/b");
        assertThat(registry.match("/a/b").config().getPath()).isEqualTo("/a/b");
    }

    @Test
    void literalSegmentWinsAtTheFirstDifference() throws Exception {
        EndpointRegistry registry = registry("/{x}/b", "/a/{y}", "/{x}/{y}");
        assertThat(registry.match("/a/b").config().getPath()).isEqualTo("/a/{y}");
        assertThat(registry.match("/c/b").config().getPath()).isEqualTo("/{x}/b");
        EndpointRegistry.Match fallback = registry.match("/c/d");
        assertThat(fallback.config().getPath()).isEqualTo("/{x}/{y}");
        assertThat(fallback.pathParameters()).isEqualTo(Map.of("x", "c", "y", "d"));
    }

    @Test
    void noMatchGivesNull() throws Exception {
        assertThat(registry("/a/{x}").match("/b/c")).isNull();
    }

    @Test
    void equivalentTemplatesCannotBothBeDeployed() throws Exception {
        EndpointRegistry registry = registry("/a/{x}");
        assertThatThrownBy(() -> registry.add(config("/a/{y}"))).isInstanceOf(DeploymentException.class)
                .hasMessageContaining("equivalent path [/a/{x}]");
    }

    private static EndpointRegistry registry(String... paths) throws DeploymentException {
        EndpointRegistry registry = new EndpointRegistry();
        for (String path : paths) {
            registry.add(config(path));
        }
        return registry;
    }

    private static ServerEndpointConfig config(String path) {
        return ServerEndpointConfig.Builder.create(Quiet.class, path).build();
    }

    public static class Quiet extends Endpoint {
        @Override
        public void onOpen(Session session, EndpointConfig config) {
            session.getUserProperties().put("opened", true);
        }
    }
}
