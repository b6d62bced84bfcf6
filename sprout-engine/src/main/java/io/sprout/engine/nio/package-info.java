/**
 * The selector transport: event loops on platform threads read request heads without blocking and service socket
 * readiness for workers that would block; the connection state machine lives in
 * {@link io.sprout.engine.nio.NioConnection}. Depends on {@code exchange}, {@code transport} and {@code exec};
 * never on {@code hybrid}.
 */
package io.sprout.engine.nio;
