/**
 * The blocking transport: one worker per connection running a plain read-head, serve, repeat loop, with sliced
 * idle waits that release workers when a platform pool is under pressure, and a watchdog for write timeouts.
 * Depends on {@code exchange}, {@code transport} and {@code exec}; never on {@code nio}.
 */
package io.sprout.engine.hybrid;
