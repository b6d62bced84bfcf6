/**
 * What both transports share about sockets: the {@link io.sprout.engine.transport.Transport} lifecycle, the
 * listening socket with admission control and accept back-off. Depends on {@code exchange} for the counters.
 */
package io.sprout.engine.transport;
