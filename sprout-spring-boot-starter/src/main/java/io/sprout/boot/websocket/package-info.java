/**
 * Jakarta WebSocket 2.2 server container over the engine's RFC 6455 connections: the {@code ServerContainer} in
 * the servlet context (which Spring's WebSocket and STOMP support use unchanged), endpoint deployment and path
 * matching, the opening handshake on the servlet layer, and sessions with their message handlers, codecs and
 * remote endpoints.
 */
package io.sprout.boot.websocket;
