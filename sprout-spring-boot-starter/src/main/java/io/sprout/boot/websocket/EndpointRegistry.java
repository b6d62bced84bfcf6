package io.sprout.boot.websocket;

import jakarta.websocket.DeploymentException;
import jakarta.websocket.server.ServerEndpointConfig;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The endpoints deployed in a container, by path. Endpoints are added at start-up (one thread) and looked up on
 * every upgrade request (any thread), hence the copy-on-write list.
 */
final class EndpointRegistry {

    /** A deployed endpoint and the template its path parsed into. */
    record Deployed(UriTemplate template, ServerEndpointConfig config) {
    }

    /** A deployed endpoint matching a request path, with the path parameters taken from it. */
    record Match(ServerEndpointConfig config, Map<String, String> pathParameters) {
    }

    private final List<Deployed> endpoints = new CopyOnWriteArrayList<>();

    /** @throws DeploymentException when the path is invalid or another endpoint has an equivalent one */
    synchronized void add(ServerEndpointConfig config) throws DeploymentException {
        UriTemplate template = UriTemplate.parse(config.getPath());
        for (Deployed deployed : endpoints) {
            if (deployed.template().equivalent(template)) {
                throw new DeploymentException("Cannot deploy " + config.getEndpointClass().getName() + " at ["
                        + config.getPath() + "]: " + deployed.config().getEndpointClass().getName()
                        + " is already deployed at the equivalent path [" + deployed.template().path() + "]");
            }
        }
        endpoints.add(new Deployed(template, config));
    }

    boolean isEmpty() {
        return endpoints.isEmpty();
    }

    /** The most specific endpoint matching {@code path} (context-relative, decoded, no query), or {@code null}. */
    Match match(String path) {
        Deployed best = null;
        Map<String, String> bestParameters = null;
        for (Deployed deployed : endpoints) {
            Map<String, String> parameters = deployed.template().match(path);
            if (parameters != null && (best == null || deployed.template().compareSpecificity(best.template()) < 0)) {
                best = deployed;
                bestParameters = parameters;
            }
        }
        return best == null ? null : new Match(best.config(), Map.copyOf(bestParameters));
    }
}
