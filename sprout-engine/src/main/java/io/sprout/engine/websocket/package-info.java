/**
 * WebSocket (RFC 6455, with RFC 7692 compression). The codec has no sockets and no threads and depends on nothing:
 * handshake validation, the resumable frame parser and the frame writer, close codes, streaming UTF-8 validation,
 * message assembly with its limits, {@code permessage-deflate}. Every protocol violation is a
 * {@link io.sprout.engine.websocket.CloseException} carrying the close code to send. On top of it,
 * {@link io.sprout.engine.websocket.WebSocketConnection} runs one connection on an upgraded
 * {@link io.sprout.engine.AsyncExchange}, and {@link io.sprout.engine.websocket.WebSocketUpgrade} turns a request
 * into one; these two are the only part that uses the engine's public API. The module exports this package for
 * {@code WebSocketUpgrade}, its only public type: everything else here is package-private.
 */
package io.sprout.engine.websocket;
