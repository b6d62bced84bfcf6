package io.sprout.boot.web;

import io.sprout.engine.RequestHandler;

/**
 * A reactive application: Spring's {@code HttpHandler} through the native adapter, with nothing to load, sweep or
 * destroy beside it.
 */
record ReactiveApplication(RequestHandler handler) implements ServedApplication {

    @Override
    public void beforeListening() {
        // Spring's handler is ready when the factory is asked for a server.
    }

    @Override
    public void housekeeping() {
        // No sessions live in the server: WebFlux keeps them in its WebSessionManager.
    }

    @Override
    public String contextPath() {
        // WebFlux applies spring.webflux.base-path itself: the server has no context path.
        return null;
    }

    @Override
    public void whenUpgradedClosed(Runnable task) {
        task.run();
    }

    @Override
    public void destroy() {
        // Nothing is held beside the engine.
    }
}
