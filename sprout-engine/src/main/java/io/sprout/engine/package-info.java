/**
 * Sprout's public API: {@link io.sprout.engine.SproutServer} and its lifecycle, the validated configuration
 * records, the blocking handler SPI ({@link io.sprout.engine.HttpHandler}, {@link io.sprout.engine.HttpRequest},
 * {@link io.sprout.engine.HttpResponse}) and the live {@link io.sprout.engine.ServerStats}. Everything else in the
 * engine is an implementation detail behind it.
 */
package io.sprout.engine;
