package io.sprout.sample.autobahn;

/**
 * The largest text and binary messages, in bytes, that the server's WebSocket sessions accept: {@code GET
 * /autobahn/limits}, which the Autobahn summary reads to tell a size case closed with 1009 over the limit (expected)
 * from one closed under it. Each server's sources define the bean from that server's own configuration.
 *
 * @param text the largest text message (bytes of UTF-8)
 * @param binary the largest binary message
 */
public record EchoLimits(int text, int binary) {
}
