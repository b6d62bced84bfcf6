package io.sprout.engine.server;

import io.sprout.engine.Headers;
import io.sprout.engine.RequestHandler;
import io.sprout.engine.ServerConfig;
import io.sprout.engine.SproutServer;
import io.sprout.engine.http.HeaderFields;

/**
 * The engine's front door: the one place that turns the API's interfaces into their implementations. It lives here,
 * not as static factories on {@link SproutServer} and {@link Headers}, so that the API package knows no
 * implementation package and the package graph stays acyclic. Both methods may be called from any thread and
 * neither blocks.
 */
public final class Sprout {

    private Sprout() {
    }

    /** A new, stopped server that answers every request with {@code handler}; {@link SproutServer#start()} it. */
    public static SproutServer server(ServerConfig config, RequestHandler handler) {
        return new EngineServer(config, handler);
    }

    /**
     * A new, empty, mutable header list, for example for a test double of an {@code HttpRequest} or an
     * {@code HttpResponse}.
     */
    public static Headers headers() {
        return new HeaderFields();
    }
}
