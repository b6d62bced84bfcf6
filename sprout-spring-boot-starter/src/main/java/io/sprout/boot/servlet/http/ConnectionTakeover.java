package io.sprout.boot.servlet.http;

import io.sprout.engine.HttpRequest;
import io.sprout.engine.HttpResponse;

import java.io.IOException;

/**
 * A protocol the container itself speaks after {@code 101 Switching Protocols} (WebSocket), given the engine's
 * request and response once the dispatch that asked for it has returned ({@link SproutRequest#takeOver}). Runs on
 * the engine's handler thread, where the engine lets an exchange be upgraded.
 */
@FunctionalInterface
public interface ConnectionTakeover {

    /** Completes the handshake on the engine's request and response and opens the protocol's connection. */
    void takeOver(HttpRequest request, HttpResponse response) throws IOException;
}
