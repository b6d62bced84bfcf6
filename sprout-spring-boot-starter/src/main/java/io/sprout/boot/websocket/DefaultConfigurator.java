package io.sprout.boot.websocket;

import jakarta.websocket.Extension;
import jakarta.websocket.server.ServerEndpointConfig;

import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The container's default {@link ServerEndpointConfig.Configurator}, found by the API's {@code ServiceLoader}
 * lookup ({@code META-INF/services}) whenever an endpoint's configurator does not override a method: the first
 * requested subprotocol the endpoint supports, the requested extensions the container has installed, any origin,
 * and a new endpoint instance from the public no-argument constructor. Stateless; any thread.
 */
public final class DefaultConfigurator extends ServerEndpointConfig.Configurator {

    @Override
    public String getNegotiatedSubprotocol(List<String> supported, List<String> requested) {
        for (String protocol : requested) {
            if (supported.contains(protocol)) {
                return protocol;
            }
        }
        return "";
    }

    @Override
    public List<Extension> getNegotiatedExtensions(List<Extension> installed, List<Extension> requested) {
        Set<String> names = new HashSet<>();
        for (Extension extension : installed) {
            names.add(extension.getName());
        }
        List<Extension> agreed = new ArrayList<>();
        Set<String> taken = new HashSet<>();
        for (Extension extension : requested) {
            // A client may offer one extension several times with different parameters: the first offer counts.
            if (names.contains(extension.getName()) && taken.add(extension.getName())) {
                agreed.add(extension);
            }
        }
        return agreed;
    }

    @Override
    public boolean checkOrigin(String originHeaderValue) {
        return true;
    }

    @Override
    public <T> T getEndpointInstance(Class<T> endpointClass) throws InstantiationException {
        try {
            return endpointClass.getConstructor().newInstance();
        } catch (InvocationTargetException e) {
            InstantiationException failure = new InstantiationException("The constructor of "
                    + endpointClass.getName() + " threw " + e.getCause());
            failure.initCause(e.getCause());
            throw failure;
        } catch (ReflectiveOperationException e) {
            InstantiationException failure = new InstantiationException("Cannot create the endpoint "
                    + endpointClass.getName() + " (a public no-argument constructor is required): " + e);
            failure.initCause(e);
            throw failure;
        }
    }
}
