/**
 * What both transports share about sockets: the {@link io.sprout.engine.transport.Transport} lifecycle, the
 * listening sockets with admission and accept back-off, the {@link io.sprout.engine.transport.ShedQueue} of
 * connections to close first at the connection limit, the {@link io.sprout.engine.transport.HeadWait} of a connection
 * waiting for a request head, and the {@link io.sprout.engine.transport.SelectorLoop} (nio's event loops, hybrid's
 * parking loop). Depends on {@code exchange} for the counters and the head clock.
 */
package io.sprout.engine.transport;
