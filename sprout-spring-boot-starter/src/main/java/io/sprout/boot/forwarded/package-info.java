/**
 * What a reverse proxy reports about the original request ({@code Forwarded}, {@code X-Forwarded-*}), read once for
 * both the Servlet request and the WebFlux request under {@code server.forward-headers-strategy=native}: which peers
 * are trusted, which header wins, which list element counts and how a host and port are split. How the values then
 * become a scheme, server name, port or URI is each side's own, because each mirrors the server its users come from
 * (Tomcat for Servlet, Reactor Netty for WebFlux). Knows only the engine.
 */
package io.sprout.boot.forwarded;
