package io.sprout.boot.web;

import io.sprout.engine.ServerConfig;

/**
 * Adjusts the engine configuration of a {@link SproutServletWebServerFactory} just before the server is built.
 * Declare beans of this type to set engine options that have no property. Called on the thread that creates the
 * web server, after {@code server.*} and {@code sprout.server.*} have been applied.
 */
@FunctionalInterface
public interface SproutServerConfigCustomizer {

    void customize(ServerConfig.Builder builder);
}
