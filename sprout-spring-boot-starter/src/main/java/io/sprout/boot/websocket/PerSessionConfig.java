package io.sprout.boot.websocket;

import jakarta.websocket.Decoder;
import jakarta.websocket.Encoder;
import jakarta.websocket.Extension;
import jakarta.websocket.server.ServerEndpointConfig;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The deployed configuration as one session sees it: the same endpoint, paths, codecs and configurator, with its own
 * copy of the user properties, so what a {@code Configurator.modifyHandshake} stores there for one handshake
 * reaches that session's {@code onOpen} and no other (as on Tomcat).
 */
final class PerSessionConfig implements ServerEndpointConfig {

    private final ServerEndpointConfig deployed;
    private final Map<String, Object> userProperties;

    PerSessionConfig(ServerEndpointConfig deployed) {
        this.deployed = deployed;
        this.userProperties = new ConcurrentHashMap<>(deployed.getUserProperties());
    }

    /** The configuration as deployed, shared by every session of the endpoint. */
    ServerEndpointConfig deployed() {
        return deployed;
    }

    @Override
    public Class<?> getEndpointClass() {
        return deployed.getEndpointClass();
    }

    @Override
    public String getPath() {
        return deployed.getPath();
    }

    @Override
    public List<String> getSubprotocols() {
        return deployed.getSubprotocols();
    }

    @Override
    public List<Extension> getExtensions() {
        return deployed.getExtensions();
    }

    @Override
    public Configurator getConfigurator() {
        return deployed.getConfigurator();
    }

    @Override
    public List<Class<? extends Encoder>> getEncoders() {
        return deployed.getEncoders();
    }

    @Override
    public List<Class<? extends Decoder>> getDecoders() {
        return deployed.getDecoders();
    }

    @Override
    public Map<String, Object> getUserProperties() {
        return userProperties;
    }
}
