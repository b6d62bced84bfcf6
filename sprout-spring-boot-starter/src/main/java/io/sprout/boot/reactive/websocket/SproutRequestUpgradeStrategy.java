package io.sprout.boot.reactive.websocket;

import io.sprout.boot.stats.WebSocketStats;
import io.sprout.engine.AsyncExchange;
import io.sprout.engine.HttpRequest;
import io.sprout.engine.HttpResponse;
import io.sprout.engine.WebSocketConfig;
import io.sprout.engine.websocket.WebSocketUpgrade;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import org.springframework.web.reactive.socket.HandshakeInfo;
import org.springframework.web.reactive.socket.WebSocketHandler;
import org.springframework.web.reactive.socket.adapter.ContextWebSocketHandler;
import org.springframework.web.reactive.socket.server.RequestUpgradeStrategy;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Spring WebFlux's WebSocket handshake on Sprout: the engine checks the handshake, agrees
 * {@code permessage-deflate}, sends {@code 101} and runs the connection; the application's {@code WebSocketHandler}
 * gets a session over it (see {@link SproutWebSocketSession}). Only for requests Sprout's reactive adapter serves.
 *
 * <p>WebFlux's pre-commit actions (such as saving a {@code WebSession}) and cookies the exchange set go out with
 * the {@code 101}, as on Jetty. The upgrade itself runs on the exchange's worker, like every engine call of the
 * reactive adapter, whatever thread the application's filters left the handling on.
 */
public final class SproutRequestUpgradeStrategy implements RequestUpgradeStrategy {

    private final WebSocketConfig config;
    private final WebSocketStats stats;

    /**
     * A strategy whose sessions are counted where no meter reads them.
     *
     * @param config the limits and options of every session ({@code sprout.server.websocket.*})
     */
    public SproutRequestUpgradeStrategy(WebSocketConfig config) {
        this(config, new WebSocketStats());
    }

    /**
     * @param config the limits and options of every session ({@code sprout.server.websocket.*})
     * @param stats where sessions and their messages are counted: the web server factory's, for the
     *        {@code sprout.websocket.*} meters
     */
    public SproutRequestUpgradeStrategy(WebSocketConfig config, WebSocketStats stats) {
        this.config = Objects.requireNonNull(config, "config");
        this.stats = Objects.requireNonNull(stats, "stats");
    }

    @Override
    public Mono<Void> upgrade(ServerWebExchange exchange, WebSocketHandler handler, @Nullable String subProtocol,
            Supplier<HandshakeInfo> handshakeInfoFactory) {
        ServerHttpRequest request = exchange.getRequest();
        ServerHttpResponse response = exchange.getResponse();
        HttpRequest engineRequest = ServerHttpRequestDecorator.getNativeRequest(request);
        HttpResponse engineResponse = ServerHttpResponseDecorator.getNativeResponse(response);
        String rejection = WebSocketUpgrade.rejection(engineRequest);
        if (rejection != null) {
            // What Spring's checks let through and RFC 6455 does not, such as a version other than 13.
            response.setStatusCode(HttpStatus.BAD_REQUEST);
            response.getHeaders().set("Sec-WebSocket-Version", "13");
            return response.setComplete();
        }
        HandshakeInfo handshake = handshakeInfoFactory.get();
        return response.setComplete().then(Mono.deferContextual(context -> {
            SessionHandler session = new SessionHandler(ContextWebSocketHandler.decorate(handler, context),
                    handshake, response.bufferFactory(), request.getId(),
                    MessageSender.windowFor(config.maxQueuedBytes()), stats);
            CompletableFuture<Void> upgraded = new CompletableFuture<>();
            AsyncExchange engineExchange = engineRequest.asyncExchange();
            boolean queued = engineExchange.execute(() -> {
                try {
                    WebSocketUpgrade.accept(engineRequest, engineResponse, config, subProtocol, session);
                    upgraded.complete(null);
                } catch (IOException | RuntimeException failure) {
                    upgraded.completeExceptionally(failure);
                }
            });
            return queued ? Mono.fromFuture(upgraded)
                    : Mono.error(new IOException("The exchange ended before the WebSocket handshake completed"));
        }));
    }
}
