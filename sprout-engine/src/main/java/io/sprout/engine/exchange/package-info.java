/**
 * One request/response lifecycle, shared by both execution modes: body framing and streams, 100-continue, response
 * commit and framing, the keep-alive decision, error responses, graceful-shutdown tracking and the live counters.
 * Transports supply a {@link io.sprout.engine.exchange.ConnectionChannel} (how bytes move) and nothing else.
 * Depends on the codec ({@code http}), the buffer pool and the public API.
 */
package io.sprout.engine.exchange;
