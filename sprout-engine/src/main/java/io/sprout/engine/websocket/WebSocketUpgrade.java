package io.sprout.engine.websocket;

import io.sprout.engine.AsyncExchange;
import io.sprout.engine.HttpRequest;
import io.sprout.engine.HttpResponse;
import io.sprout.engine.WebSocket;
import io.sprout.engine.WebSocketConfig;
import io.sprout.engine.WebSocketHandler;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Turns a request into a {@link WebSocket} (RFC 6455 §4.2): checks the opening handshake, agrees
 * {@code permessage-deflate} (RFC 7692) when the configuration allows it, sends {@code 101 Switching Protocols}
 * and hands the connection to a {@link WebSocketHandler}. The origin and the subprotocol are the application's
 * choice; the caller passes the subprotocol it picked from {@code Sec-WebSocket-Protocol}.
 *
 * <p>Called by the thread working on the request, typically its handler. {@code requested} and {@code rejection}
 * only read the request; {@code reject} and {@code accept} write to the client and may block on it. The only public
 * type of its package: the handshake, the negotiation and the connection behind it are implementation.
 */
public final class WebSocketUpgrade {

    private WebSocketUpgrade() {
    }

    /** Whether the request asks for a WebSocket at all ({@code Upgrade: websocket}). */
    public static boolean requested(HttpRequest request) {
        return Handshake.isUpgradeRequest(request.headers()::all);
    }

    /** Why the request is not a valid opening handshake, or {@code null} when it is. */
    public static String rejection(HttpRequest request) {
        return Handshake.rejection(request.method(), request.protocol().equals("HTTP/1.1"), request.headers()::all);
    }

    /**
     * Answers an invalid handshake: {@code 400} naming the reason, with {@code Sec-WebSocket-Version: 13} so the
     * client learns the version this server speaks.
     */
    public static void reject(HttpResponse response, String reason) throws IOException {
        byte[] body = reason.getBytes(StandardCharsets.UTF_8);
        response.status(400);
        response.headers().set("Sec-WebSocket-Version", Handshake.VERSION);
        response.headers().set("Content-Type", "text/plain;charset=UTF-8");
        response.body().write(body);
    }

    /**
     * Completes a valid handshake from the request's handler and opens the WebSocket; the handler's
     * {@link WebSocketHandler#onOpen} runs once the handler returns.
     *
     * @param subprotocol the subprotocol chosen from the client's {@code Sec-WebSocket-Protocol}, or {@code null}
     * @throws IllegalArgumentException when the request is not a valid handshake (see {@link #rejection})
     * @throws IOException when the client has gone
     */
    public static WebSocket accept(HttpRequest request, HttpResponse response, WebSocketConfig config,
            String subprotocol, WebSocketHandler handler) throws IOException {
        String rejection = rejection(request);
        if (rejection != null) {
            throw new IllegalArgumentException("Not a valid WebSocket handshake: " + rejection);
        }
        DeflateNegotiation deflate = config.compression()
                ? DeflateNegotiation.negotiate(request.headers().all("Sec-WebSocket-Extensions")) : null;
        var headers = response.headers();
        headers.set("Upgrade", "websocket");
        headers.set("Connection", "Upgrade");
        headers.set("Sec-WebSocket-Accept", Handshake.accept(request.headers().get("Sec-WebSocket-Key")));
        if (subprotocol != null) {
            headers.set("Sec-WebSocket-Protocol", subprotocol);
        }
        if (deflate != null) {
            headers.set("Sec-WebSocket-Extensions", deflate.responseValue());
        }
        AsyncExchange exchange = request.asyncExchange() != null ? request.asyncExchange() : request.startAsync();
        exchange.upgrade();
        return WebSocketConnection.open(exchange, request.body(), response.body(), config, deflate, handler);
    }
}
