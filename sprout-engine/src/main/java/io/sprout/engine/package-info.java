/**
 * Sprout's public API: the {@link io.sprout.engine.SproutServer} interface and its lifecycle, the validated
 * configuration records, the blocking handler SPI ({@link io.sprout.engine.RequestHandler},
 * {@link io.sprout.engine.HttpRequest}, {@link io.sprout.engine.HttpResponse}, {@link io.sprout.engine.Headers}),
 * WebSocket's interfaces and configuration, the live {@link io.sprout.engine.ServerStats} and the exceptions a caller
 * may need to tell apart. It uses no other engine package: the implementation depends on it, never the other way round.
 * A server is made by {@link io.sprout.engine.server.Sprout} in {@code io.sprout.engine.server}, which assembles the
 * implementation behind these interfaces; a WebSocket by {@link io.sprout.engine.websocket.WebSocketUpgrade}.
 */
package io.sprout.engine;
