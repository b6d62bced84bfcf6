/**
 * Counters that more than one of the starter's stacks feed and the metrics read, such as
 * {@link io.sprout.boot.stats.WebSocketStats}, which both the Jakarta WebSocket container and WebFlux's WebSocket
 * sessions count into. A leaf: it knows no other Sprout package, nor Spring, so every layer may use it.
 */
package io.sprout.boot.stats;
