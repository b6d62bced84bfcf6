/**
 * Assembles the layers into a running server, and is the front door to it: {@link io.sprout.engine.server.Sprout}
 * makes a {@link io.sprout.engine.SproutServer} (and a {@link io.sprout.engine.Headers} for test doubles). Behind it,
 * package-private, the server's lifecycle under one monitor (each start builds the context, TLS, workers and
 * transport afresh, each stop tears them down), the live statistics over the current run's counters and pools, and
 * the platform pool that sheds slow request bodies when tasks wait for a worker. The only package that may use
 * every layer; nothing in the engine but {@code hello} uses it.
 */
package io.sprout.engine.server;
