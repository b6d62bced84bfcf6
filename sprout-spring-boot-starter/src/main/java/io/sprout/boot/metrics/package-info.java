/**
 * Micrometer meters for a running Sprout server: the engine's live connection, request, byte, buffer and worker
 * statistics as {@code sprout.*} meters, and the WebSocket sessions of either stack (the Jakarta container's or
 * WebFlux's) as {@code sprout.websocket.*}, bound once the application has started.
 */
package io.sprout.boot.metrics;
