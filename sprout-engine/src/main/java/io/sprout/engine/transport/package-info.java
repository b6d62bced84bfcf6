/**
 * The connection lifecycle of both execution modes: the {@link io.sprout.engine.transport.Transport} lifecycle and
 * its one implementation, {@link io.sprout.engine.transport.LoopTransport}; the listening sockets with admission and
 * accept back-off; the {@link io.sprout.engine.transport.SelectorLoop} event loops; and per connection a
 * {@link io.sprout.engine.transport.LoopConnection} (its state machine, its TLS handshake on the loop, its worker's
 * side, the exchange's channel and, in hybrid mode, its socket in blocking mode once a worker would wait), the
 * {@link io.sprout.engine.transport.HeadWait} for its next request head and its place in the
 * {@link io.sprout.engine.transport.ShedQueue} of connections to close first at the connection limit. Depends on
 * {@code exchange}, {@code tls}, {@code exec}, {@code http}, {@code buffer} and the public API.
 */
package io.sprout.engine.transport;
