package io.sprout.boot.websocket;

import io.sprout.boot.servlet.http.SproutRequest;
import io.sprout.boot.websocket.annotated.AnnotatedEndpointModel;
import io.sprout.engine.WebSocketConfig;
import io.sprout.engine.websocket.WebSocketUpgrade;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletRequestWrapper;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.websocket.DeploymentException;
import jakarta.websocket.Endpoint;
import jakarta.websocket.Extension;
import jakarta.websocket.HandshakeResponse;
import jakarta.websocket.server.ServerEndpointConfig;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One opening handshake on the servlet layer (Jakarta WebSocket 2.2 §4.1.3, §8.0): rejects an invalid one with
 * {@code 400} and {@code Sec-WebSocket-Version: 13}, a refused origin with {@code 403}, agrees the subprotocol and
 * extensions through the endpoint's configurator, lets it modify the response, and asks the servlet layer to hand
 * the connection over once the dispatch returns; the engine then sends the {@code 101} and the session opens.
 * Runs on the request's thread.
 */
final class ServletHandshake {

    private final SproutServerContainer container;

    ServletHandshake(SproutServerContainer container) {
        this.container = container;
    }

    void upgrade(HttpServletRequest request, HttpServletResponse response, ServerEndpointConfig deployed,
            Map<String, String> pathParameters) throws IOException, DeploymentException {
        PerSessionConfig config = new PerSessionConfig(deployed);
        SproutRequest sprout = unwrap(request);
        String rejection = WebSocketUpgrade.rejection(sprout.engineRequest());
        if (rejection != null) {
            reject(response, rejection);
            return;
        }
        ServerEndpointConfig.Configurator configurator = config.getConfigurator();
        if (!configurator.checkOrigin(request.getHeader("Origin"))) {
            response.sendError(HttpServletResponse.SC_FORBIDDEN, "The origin of the WebSocket handshake is not "
                    + "allowed");
            return;
        }
        ServletHandshakeRequest handshake = new ServletHandshakeRequest(request);
        String subprotocol = subprotocol(configurator, config, handshake);
        List<Extension> extensions = configurator.getNegotiatedExtensions(
                List.copyOf(container.getInstalledExtensions()), Extensions.parse(
                        handshake.getHeaders().getOrDefault("Sec-WebSocket-Extensions", List.of())));
        boolean deflate = extensions.stream().anyMatch(e -> e.getName().equals("permessage-deflate"));
        Endpoint endpoint = endpoint(config);
        modifyHandshake(configurator, config, handshake, response);

        AnnotatedEndpointModel model = container.model(config.getEndpointClass());
        // The container's defaults govern (ServletServerContainerFactoryBean sets them), an endpoint's
        // @OnMessage(maxMessageSize) overrides them, and the engine enforces the result on the connection.
        int text = model != null && model.maxText() > 0 ? model.maxText()
                : container.getDefaultMaxTextMessageBufferSize();
        int binary = model != null && model.maxBinary() > 0 ? model.maxBinary()
                : container.getDefaultMaxBinaryMessageBufferSize();
        WebSocketConfig base = container.engineConfig();
        WebSocketConfig connection = base.withMaxMessageSizes(text, binary)
                .withCompression(base.compression() && deflate);
        SproutSession session = new SproutSession(container.nextSessionId(), container, config,
                handshake.data(pathParameters, subprotocol), connection,
                container.getDefaultMaxSessionIdleTimeout());
        SessionBridge bridge = new SessionBridge(session, endpoint, container.stats(),
                request.getServletContext().getClassLoader());
        sprout.takeOver((engineRequest, engineResponse) -> {
            try {
                WebSocketUpgrade.accept(engineRequest, engineResponse, connection, subprotocol, bridge);
            } catch (IOException | RuntimeException e) {
                session.abandoned();
                throw e;
            }
        });
    }

    private static SproutRequest unwrap(ServletRequest request) {
        ServletRequest current = request;
        while (!(current instanceof SproutRequest) && current instanceof ServletRequestWrapper wrapper) {
            current = wrapper.getRequest();
        }
        if (current instanceof SproutRequest sprout) {
            return sprout;
        }
        throw new IllegalArgumentException("Sprout's WebSocket container upgrades only requests of Sprout's "
                + "servlet container, not " + request.getClass().getName());
    }

    private static void reject(HttpServletResponse response, String reason) throws IOException {
        byte[] body = ("Bad WebSocket handshake: " + reason).getBytes(StandardCharsets.UTF_8);
        response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
        response.setHeader("Sec-WebSocket-Version", "13");
        response.setContentType("text/plain;charset=UTF-8");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }

    /** The configurator's choice among the endpoint's subprotocols, or {@code null} for none. */
    private static String subprotocol(ServerEndpointConfig.Configurator configurator, ServerEndpointConfig config,
            ServletHandshakeRequest handshake) {
        List<String> requested = handshake.tokens("Sec-WebSocket-Protocol");
        if (requested.isEmpty()) {
            return null;
        }
        // Spring passes the protocol it chose, or a list holding only null when it chose none.
        List<String> supported = new ArrayList<>();
        for (String protocol : config.getSubprotocols()) {
            if (protocol != null) {
                supported.add(protocol);
            }
        }
        String chosen = configurator.getNegotiatedSubprotocol(supported, requested);
        return chosen == null || chosen.isEmpty() ? null : chosen;
    }

    private Endpoint endpoint(ServerEndpointConfig config) throws DeploymentException {
        Object instance;
        try {
            instance = config.getConfigurator().getEndpointInstance(config.getEndpointClass());
        } catch (InstantiationException e) {
            throw new DeploymentException("Cannot create the WebSocket endpoint "
                    + config.getEndpointClass().getName(), e);
        }
        if (instance instanceof Endpoint endpoint) {
            return endpoint;
        }
        AnnotatedEndpointModel model = container.model(config.getEndpointClass());
        if (model == null) {
            throw new DeploymentException(config.getEndpointClass().getName() + " is neither an Endpoint nor "
                    + "annotated with @ServerEndpoint");
        }
        return model.endpoint(instance);
    }

    private static void modifyHandshake(ServerEndpointConfig.Configurator configurator, ServerEndpointConfig config,
            ServletHandshakeRequest handshake, HttpServletResponse response) {
        Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        HandshakeResponse handshakeResponse = () -> headers;
        configurator.modifyHandshake(config, handshake, handshakeResponse);
        headers.forEach((name, values) -> {
            boolean first = true;
            for (String value : values) {
                if (first) {
                    response.setHeader(name, value);
                    first = false;
                } else {
                    response.addHeader(name, value);
                }
            }
        });
    }
}
