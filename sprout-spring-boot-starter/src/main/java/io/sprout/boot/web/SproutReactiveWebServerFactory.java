package io.sprout.boot.web;

import io.sprout.boot.compression.CompressingRequestHandler;
import io.sprout.boot.compression.CompressionPolicy;
import io.sprout.boot.reactive.SproutHttpHandlerAdapter;
import io.sprout.engine.RequestHandler;
import io.sprout.engine.ServerConfig;
import org.springframework.boot.web.server.Shutdown;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.reactive.ConfigurableReactiveWebServerFactory;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.server.reactive.HttpHandler;

/**
 * Creates {@link SproutWebServer}s serving a Spring WebFlux application: Spring Boot 4's reactive web server factory
 * for Sprout, in the place of Reactor Netty's. Spring's {@link HttpHandler} runs on the engine's asynchronous
 * exchange through {@link SproutHttpHandlerAdapter} (not the Servlet bridge), in every execution mode and thread
 * type. {@code server.*} properties arrive through Boot's {@code ReactiveWebServerFactoryCustomizer} (port, address,
 * SSL and bundles, compression, HTTP/2, shutdown) and Sprout's {@code SproutWebServerFactoryCustomizer}
 * ({@code forward-headers-strategy=native}, see {@link #setUseForwardHeaders}); the engine configuration is
 * {@link AbstractSproutWebServerFactory}'s, as for the servlet factory.
 *
 * <p>Configured and used on the thread that refreshes the application context.
 */
public class SproutReactiveWebServerFactory extends AbstractSproutWebServerFactory
        implements ConfigurableReactiveWebServerFactory {

    public SproutReactiveWebServerFactory() {
        super(reactiveDefaults());
    }

    public SproutReactiveWebServerFactory(int port) {
        super(port, reactiveDefaults());
    }

    /**
     * The engine's defaults, with a platform pool sized for handlers that do not block: twice the available
     * processors, at least 4. The engine's 200 suit Spring MVC; under a WebFlux load the pool started all 200 (a
     * task found no worker idle while the others were runnable, not blocked) and each task then woke another thread:
     * at 2,000 clients of a {@code Mono.delay} handler on one CPU, 14,269 requests per second with 200 workers
     * against 17,630 with 4 (docs/benchmarks.md, "AsyncLatency and the platform pool").
     */
    private static ServerConfig reactiveDefaults() {
        return ServerConfig.builder()
                .threadPoolSize(Math.max(4, 2 * Runtime.getRuntime().availableProcessors()))
                .build();
    }

    @Override
    public WebServer getWebServer(HttpHandler httpHandler) {
        // Before anything else: bad TLS key material then fails here, as on the servlet side.
        ServerConfig engineConfig = getPort() < 0 ? null : engineConfig();
        RequestHandler handler = new SproutHttpHandlerAdapter(httpHandler, DefaultDataBufferFactory.sharedInstance,
                isUseForwardHeaders());
        CompressionPolicy compression = compressionPolicy();
        if (compression != null) {
            handler = new CompressingRequestHandler(compression, handler);
        }
        return new SproutWebServer(engineConfig, new ReactiveApplication(handler),
                getShutdown() == Shutdown.GRACEFUL, getWarmUp(), getWebSocketStats());
    }
}
