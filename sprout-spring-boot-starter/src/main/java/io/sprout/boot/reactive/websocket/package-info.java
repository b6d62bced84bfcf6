/**
 * Spring WebFlux's WebSocket support on the engine's own WebSocket connections:
 * {@link io.sprout.boot.reactive.websocket.SproutRequestUpgradeStrategy} completes the handshake and runs the
 * application's {@code WebSocketHandler} on a session whose {@code receive()} demand drives the engine's reading
 * (no demand: the socket is not read, and TCP holds the client back) and whose {@code send()} hands the engine one
 * frame at a time. Like its parent package, it knows the engine's API and Spring, and of the starter only the leaf
 * {@code stats}, where its sessions are counted as the Jakarta container's are.
 */
package io.sprout.boot.reactive.websocket;
