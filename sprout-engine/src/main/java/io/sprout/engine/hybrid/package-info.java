/**
 * The blocking transport: a worker serves each request with plain blocking reads and writes; a plaintext
 * connection waits for its request heads parked on a selector, without a worker; a TLS connection keeps one worker
 * start to end, with sliced idle waits that release it when a platform pool is under pressure; a watchdog enforces
 * write timeouts. Depends on {@code exchange}, {@code transport} and {@code exec}; never on {@code nio}.
 */
package io.sprout.engine.hybrid;
