/**
 * The WebSocket protocol (RFC 6455) with no sockets and no threads: handshake validation, the resumable frame
 * parser and the frame writer, close codes, streaming UTF-8 validation and message assembly with its limits.
 * Every protocol violation is a {@link io.sprout.engine.websocket.CloseException} carrying the close code to send.
 * Depends on nothing else in the engine.
 */
package io.sprout.engine.websocket;
