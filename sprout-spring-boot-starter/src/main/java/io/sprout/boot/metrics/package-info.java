/**
 * Micrometer meters for a running Sprout server: the engine's live connection, request, byte, buffer and worker
 * statistics as {@code sprout.*} meters, bound once the application has started.
 */
package io.sprout.boot.metrics;
