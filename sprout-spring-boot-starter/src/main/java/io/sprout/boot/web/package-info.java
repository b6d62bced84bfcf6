/**
 * Boot's web server SPI implemented over the Sprout engine: {@link
 * io.sprout.boot.web.SproutServletWebServerFactory} turns Boot's settings into a servlet context and an engine
 * configuration, {@link io.sprout.boot.web.SproutWebServer} owns the engine's lifecycle (two-phase start,
 * idempotent stop, graceful shutdown, the non-daemon keep-alive thread).
 */
package io.sprout.boot.web;
