package io.sprout.boot.websocket;

import io.sprout.boot.servlet.Unsupported;
import io.sprout.boot.stats.WebSocketStats;
import io.sprout.boot.websocket.annotated.AnnotatedEndpointModel;
import io.sprout.engine.WebSocketConfig;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.websocket.ClientEndpointConfig;
import jakarta.websocket.DeploymentException;
import jakarta.websocket.Endpoint;
import jakarta.websocket.Extension;
import jakarta.websocket.Session;
import jakarta.websocket.server.ServerContainer;
import jakarta.websocket.server.ServerEndpoint;
import jakarta.websocket.server.ServerEndpointConfig;

import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Sprout's Jakarta WebSocket 2.2 {@link ServerContainer}, one per servlet context and found there under
 * {@link #ATTRIBUTE}, where Spring's {@code ServerEndpointExporter} and {@code StandardWebSocketUpgradeStrategy}
 * look for it. Deploys annotated and programmatic endpoints, upgrades matching requests (through
 * {@link WebSocketUpgradeFilter} or {@link #upgradeHttpToWebSocket}) and runs their sessions on the engine's
 * WebSocket connections. Endpoints are added while the application starts, until the server starts listening
 * (Jakarta WebSocket 2.2 §6.4; Spring's {@code ServerEndpointExporter} adds them once the beans exist, after the
 * servlet context's initialisation); everything else may be called from any thread.
 *
 * <p>A server only: {@code connectToServer} throws an {@link io.sprout.boot.servlet.UnsupportedFeatureException}.
 */
public final class SproutServerContainer implements ServerContainer {

    /** The servlet context attribute the Jakarta WebSocket specification names (§6.4). */
    public static final String ATTRIBUTE = "jakarta.websocket.server.ServerContainer";

    private final WebSocketConfig engineConfig;
    private final EndpointRegistry endpoints = new EndpointRegistry();
    private final Map<Class<?>, AnnotatedEndpointModel> models = new ConcurrentHashMap<>();
    private final WebSocketStats stats;
    private final OpenSessions openSessions;
    private final AtomicLong sessionIds = new AtomicLong();
    private final ServletHandshake handshake = new ServletHandshake(this);
    private volatile long asyncSendTimeout;
    private volatile long maxSessionIdleTimeout;
    private volatile int maxTextMessageBufferSize;
    private volatile int maxBinaryMessageBufferSize;
    private volatile boolean deploymentEnded;

    /** @param engineConfig the limits of every connection ({@code sprout.server.websocket.*}) */
    public SproutServerContainer(WebSocketConfig engineConfig) {
        this(engineConfig, new WebSocketStats());
    }

    /**
     * @param engineConfig the limits of every connection ({@code sprout.server.websocket.*})
     * @param stats where the sessions and their messages are counted (the web server's, which the meters read)
     */
    public SproutServerContainer(WebSocketConfig engineConfig, WebSocketStats stats) {
        this.engineConfig = engineConfig;
        this.stats = stats;
        this.openSessions = new OpenSessions(stats);
        this.maxSessionIdleTimeout = engineConfig.idleTimeout().toMillis();
        this.maxTextMessageBufferSize = engineConfig.maxTextMessageSize();
        this.maxBinaryMessageBufferSize = engineConfig.maxBinaryMessageSize();
    }

    @Override
    public void addEndpoint(Class<?> endpointClass) throws DeploymentException {
        checkDeploying(endpointClass);
        ServerEndpoint annotation = endpointClass.getAnnotation(ServerEndpoint.class);
        if (annotation == null) {
            throw new DeploymentException("Cannot deploy " + endpointClass.getName()
                    + ": it is not annotated with @ServerEndpoint");
        }
        AnnotatedEndpointModel model = analyse(endpointClass);
        ServerEndpointConfig.Builder builder = ServerEndpointConfig.Builder.create(endpointClass, annotation.value())
                .subprotocols(List.of(annotation.subprotocols()))
                .encoders(List.of(annotation.encoders()))
                .decoders(List.of(annotation.decoders()));
        if (annotation.configurator() != ServerEndpointConfig.Configurator.class) {
            try {
                builder.configurator(annotation.configurator().getConstructor().newInstance());
            } catch (ReflectiveOperationException e) {
                throw new DeploymentException("Cannot create the configurator " + annotation.configurator()
                        .getName() + " of " + endpointClass.getName(), e);
            }
        }
        endpoints.add(builder.build());
        models.put(endpointClass, model);
    }

    @Override
    public void addEndpoint(ServerEndpointConfig config) throws DeploymentException {
        Class<?> type = config.getEndpointClass();
        checkDeploying(type);
        if (!Endpoint.class.isAssignableFrom(type)) {
            if (type.getAnnotation(ServerEndpoint.class) == null) {
                throw new DeploymentException("Cannot deploy " + type.getName() + ": it is neither an Endpoint "
                        + "nor annotated with @ServerEndpoint");
            }
            models.put(type, analyse(type, config));
        }
        endpoints.add(config);
    }

    /** The server is about to listen: the deployment phase is over, and endpoints can no longer be added. */
    public void endDeployment() {
        deploymentEnded = true;
    }

    private void checkDeploying(Class<?> type) throws DeploymentException {
        if (deploymentEnded) {
            throw new DeploymentException("Cannot deploy " + type.getName() + ": WebSocket endpoints are added "
                    + "while the application starts (Jakarta WebSocket 2.2 §6.4), and this server has started; "
                    + "use ServerContainer.upgradeHttpToWebSocket for endpoints chosen at run time");
        }
    }

    @Override
    public void upgradeHttpToWebSocket(Object httpServletRequest, Object httpServletResponse,
            ServerEndpointConfig config, Map<String, String> pathParameters) throws IOException, DeploymentException {
        handshake.upgrade((HttpServletRequest) httpServletRequest, (HttpServletResponse) httpServletResponse,
                config, pathParameters);
    }

    /** The deployed endpoint for a context-relative path, or {@code null}. */
    EndpointRegistry.Match match(String path) {
        return endpoints.isEmpty() ? null : endpoints.match(path);
    }

    /** The model of an annotated endpoint class, analysed on first use; {@code null} for other classes. */
    AnnotatedEndpointModel model(Class<?> type) throws DeploymentException {
        AnnotatedEndpointModel model = models.get(type);
        if (model == null && type.getAnnotation(ServerEndpoint.class) != null) {
            model = analyse(type);
            models.put(type, model);
        }
        return model;
    }

    private static AnnotatedEndpointModel analyse(Class<?> type) throws DeploymentException {
        ServerEndpoint annotation = type.getAnnotation(ServerEndpoint.class);
        return AnnotatedEndpointModel.analyse(type, annotation == null ? List.of()
                : List.of(annotation.decoders()));
    }

    private static AnnotatedEndpointModel analyse(Class<?> type, ServerEndpointConfig config)
            throws DeploymentException {
        return AnnotatedEndpointModel.analyse(type, config.getDecoders());
    }

    WebSocketConfig engineConfig() {
        return engineConfig;
    }

    /** The open sessions, for {@code Session.getOpenSessions()} and a graceful shutdown. */
    public OpenSessions openSessions() {
        return openSessions;
    }

    /** Where sessions and messages are counted for the meters. */
    WebSocketStats stats() {
        return stats;
    }

    String nextSessionId() {
        return Long.toHexString(sessionIds.incrementAndGet());
    }

    @Override
    public long getDefaultAsyncSendTimeout() {
        return asyncSendTimeout;
    }

    @Override
    public void setAsyncSendTimeout(long timeoutmillis) {
        asyncSendTimeout = timeoutmillis;
    }

    @Override
    public long getDefaultMaxSessionIdleTimeout() {
        return maxSessionIdleTimeout;
    }

    @Override
    public void setDefaultMaxSessionIdleTimeout(long timeout) {
        maxSessionIdleTimeout = timeout;
    }

    @Override
    public int getDefaultMaxBinaryMessageBufferSize() {
        return maxBinaryMessageBufferSize;
    }

    /** Raises or lowers the limit of sessions opened from now on; above the engine's, it raises theirs too. */
    @Override
    public void setDefaultMaxBinaryMessageBufferSize(int max) {
        maxBinaryMessageBufferSize = positive(max, "binary");
    }

    @Override
    public int getDefaultMaxTextMessageBufferSize() {
        return maxTextMessageBufferSize;
    }

    /** As {@link #setDefaultMaxBinaryMessageBufferSize}, for text. */
    @Override
    public void setDefaultMaxTextMessageBufferSize(int max) {
        maxTextMessageBufferSize = positive(max, "text");
    }

    private static int positive(int max, String kind) {
        if (max < 1 || max > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("The default largest " + kind + " message must be between 1 and "
                    + (Integer.MAX_VALUE - 8) + " bytes but was " + max);
        }
        return max;
    }

    @Override
    public Set<Extension> getInstalledExtensions() {
        return engineConfig.compression() ? Set.of(Extensions.PERMESSAGE_DEFLATE) : Set.of();
    }

    @Override
    public Session connectToServer(Object annotatedEndpointInstance, URI path) {
        throw clientUnsupported();
    }

    @Override
    public Session connectToServer(Class<?> annotatedEndpointClass, URI path) {
        throw clientUnsupported();
    }

    @Override
    public Session connectToServer(Endpoint endpointInstance, ClientEndpointConfig config, URI path) {
        throw clientUnsupported();
    }

    @Override
    public Session connectToServer(Class<? extends Endpoint> endpointClass, ClientEndpointConfig config, URI path) {
        throw clientUnsupported();
    }

    private static RuntimeException clientUnsupported() {
        return Unsupported.webSocketClient();
    }
}
