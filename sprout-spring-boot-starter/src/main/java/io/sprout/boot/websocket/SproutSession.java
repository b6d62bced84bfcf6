package io.sprout.boot.websocket;

import io.sprout.engine.WebSocket;
import io.sprout.engine.WebSocketConfig;
import jakarta.websocket.CloseReason;
import jakarta.websocket.Extension;
import jakarta.websocket.MessageHandler;
import jakarta.websocket.RemoteEndpoint;
import jakarta.websocket.Session;
import jakarta.websocket.WebSocketContainer;
import jakarta.websocket.server.ServerEndpointConfig;

import java.net.URI;
import java.security.Principal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A Jakarta WebSocket {@link Session} over an engine {@link WebSocket}. Created by the handshake with what the
 * request said; the engine socket arrives when the connection opens, before the endpoint's {@code onOpen}. Any
 * thread may use it; handlers are called on the session's worker, one message at a time.
 */
final class SproutSession implements Session {

    private final String id;
    private final SproutServerContainer container;
    private final PerSessionConfig config;
    private final HandshakeData handshake;
    private final Map<String, Object> userProperties = new ConcurrentHashMap<>();
    private final MessageHandlers handlers;
    private final Codecs codecs;
    private final Sender sender;
    private final BasicRemote basic;
    private final AsyncRemote async;
    private volatile WebSocket socket;
    private volatile List<Extension> extensions = List.of();
    private volatile long maxIdleTimeout;
    private volatile int maxText;
    private volatile int maxBinary;

    /**
     * @param limits the largest text and binary messages at first: the connection's, which the engine enforces
     * @param maxIdleTimeout the idle timeout at first, in milliseconds; zero or negative for none
     */
    SproutSession(String id, SproutServerContainer container, PerSessionConfig config, HandshakeData handshake,
            WebSocketConfig limits, long maxIdleTimeout) {
        this.id = id;
        this.container = container;
        this.config = config;
        this.handshake = handshake;
        this.maxText = limits.maxTextMessageSize();
        this.maxBinary = limits.maxBinaryMessageSize();
        this.maxIdleTimeout = maxIdleTimeout;
        this.handlers = new MessageHandlers(config.getDecoders());
        this.codecs = new Codecs(config);
        this.sender = new Sender(this::socket, codecs, container.stats());
        this.basic = new BasicRemote(sender);
        this.async = new AsyncRemote(sender, container.getDefaultAsyncSendTimeout());
    }

    /** The connection is open (the session's worker, before the endpoint's {@code onOpen}). */
    void opened(WebSocket value) {
        socket = value;
        extensions = Extensions.parse(List.of(value.extensions()));
        value.idleTimeout(maxIdleTimeout > 0 ? Duration.ofMillis(maxIdleTimeout) : Duration.ZERO);
        // A setter called between the handshake and now changed only the fields.
        value.maxMessageSizes(maxText, maxBinary);
        container.openSessions().opened(config.deployed(), this);
    }

    /** The connection has closed: the session leaves the open ones and its codecs are destroyed. */
    void closed() {
        container.openSessions().closed(config.deployed(), this);
        codecs.destroy();
    }

    /** The handshake failed after the session was made (the client left before the 101): it never opens. */
    void abandoned() {
        codecs.destroy();
    }

    private WebSocket socket() {
        WebSocket current = socket;
        if (current == null) {
            throw new IllegalStateException("The WebSocket session " + id + " is not open yet");
        }
        return current;
    }

    MessageHandlers handlers() {
        return handlers;
    }

    Codecs codecs() {
        return codecs;
    }

    ServerEndpointConfig config() {
        return config;
    }

    @Override
    public WebSocketContainer getContainer() {
        return container;
    }

    @Override
    public void addMessageHandler(MessageHandler handler) {
        handlers.add(handler);
    }

    @Override
    public <T> void addMessageHandler(Class<T> type, MessageHandler.Whole<T> handler) {
        handlers.add(type, handler, false);
    }

    @Override
    public <T> void addMessageHandler(Class<T> type, MessageHandler.Partial<T> handler) {
        handlers.add(type, handler, true);
    }

    @Override
    public Set<MessageHandler> getMessageHandlers() {
        return handlers.all();
    }

    @Override
    public void removeMessageHandler(MessageHandler handler) {
        handlers.remove(handler);
    }

    @Override
    public String getProtocolVersion() {
        return "13";
    }

    @Override
    public String getNegotiatedSubprotocol() {
        return handshake.subprotocol() == null ? "" : handshake.subprotocol();
    }

    @Override
    public List<Extension> getNegotiatedExtensions() {
        return extensions;
    }

    @Override
    public boolean isSecure() {
        return handshake.secure();
    }

    @Override
    public boolean isOpen() {
        WebSocket current = socket;
        return current != null && current.isOpen();
    }

    @Override
    public long getMaxIdleTimeout() {
        return maxIdleTimeout;
    }

    /** Zero or negative: no limit. Applies from the next wait for the client on. */
    @Override
    public void setMaxIdleTimeout(long milliseconds) {
        maxIdleTimeout = milliseconds;
        WebSocket current = socket;
        if (current != null) {
            current.idleTimeout(milliseconds > 0 ? Duration.ofMillis(milliseconds) : Duration.ZERO);
        }
    }

    /**
     * Raises or lowers the largest binary message the engine accepts whole on this session, from the next message
     * on; a larger one closes the session with 1009. A partial handler's messages have no limit.
     */
    @Override
    public void setMaxBinaryMessageBufferSize(int length) {
        WebSocketConfig.checkMessageSizes(maxText, length);
        maxBinary = length;
        applyLimits();
    }

    @Override
    public int getMaxBinaryMessageBufferSize() {
        return maxBinary;
    }

    /** As {@link #setMaxBinaryMessageBufferSize}, for text (bytes of UTF-8). */
    @Override
    public void setMaxTextMessageBufferSize(int length) {
        WebSocketConfig.checkMessageSizes(length, maxBinary);
        maxText = length;
        applyLimits();
    }

    @Override
    public int getMaxTextMessageBufferSize() {
        return maxText;
    }

    private void applyLimits() {
        WebSocket current = socket;
        if (current != null) {
            current.maxMessageSizes(maxText, maxBinary);
        }
    }

    @Override
    public RemoteEndpoint.Async getAsyncRemote() {
        return async;
    }

    @Override
    public RemoteEndpoint.Basic getBasicRemote() {
        return basic;
    }

    @Override
    public String getId() {
        return id;
    }

    @Override
    public void close() {
        close(new CloseReason(CloseReason.CloseCodes.NORMAL_CLOSURE, ""));
    }

    /** Starts the closing handshake; the endpoint's {@code onClose} runs once the client has answered. */
    @Override
    public void close(CloseReason reason) {
        WebSocket current = socket;
        if (current != null) {
            current.close(reason.getCloseCode().getCode(), reason.getReasonPhrase());
        }
    }

    @Override
    public URI getRequestURI() {
        return handshake.requestUri();
    }

    @Override
    public Map<String, List<String>> getRequestParameterMap() {
        return handshake.parameters();
    }

    @Override
    public String getQueryString() {
        return handshake.queryString();
    }

    @Override
    public Map<String, String> getPathParameters() {
        return handshake.pathParameters();
    }

    @Override
    public Map<String, Object> getUserProperties() {
        return userProperties;
    }

    @Override
    public Principal getUserPrincipal() {
        return handshake.principal();
    }

    @Override
    public Set<Session> getOpenSessions() {
        return container.openSessions().of(config.deployed());
    }

    @Override
    public String toString() {
        return "SproutSession[" + id + " " + handshake.requestUri() + "]";
    }
}
