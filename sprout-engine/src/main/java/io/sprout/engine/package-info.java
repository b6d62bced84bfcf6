/**
 * Sprout's public API: the {@link io.sprout.engine.SproutServer} interface and its lifecycle, the validated
 * configuration records, the blocking handler SPI ({@link io.sprout.engine.HttpHandler},
 * {@link io.sprout.engine.HttpRequest}, {@link io.sprout.engine.HttpResponse}, {@link io.sprout.engine.Headers}),
 * the live {@link io.sprout.engine.ServerStats} and the exceptions a caller may need to tell apart. A server is made
 * by {@link io.sprout.engine.server.Sprout} in {@code io.sprout.engine.server}, which assembles the implementation
 * behind these interfaces.
 */
package io.sprout.engine;
