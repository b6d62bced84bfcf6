package io.sprout.boot.web;

import io.sprout.engine.ShutdownResult;
import io.sprout.engine.SproutServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.web.server.GracefulShutdownCallback;
import org.springframework.boot.web.server.GracefulShutdownResult;

import java.util.function.Consumer;

/**
 * Boot's graceful shutdown over the engine's: the engine closes the listener at once, lets in-flight requests
 * (including async ones, whose workers are still inside the handler) finish, and reports once; this class logs
 * and translates the result. Returns promptly; the callback comes later on an engine thread.
 */
final class GracefulShutdown {

    private static final Logger LOG = LoggerFactory.getLogger(GracefulShutdown.class);

    private GracefulShutdown() {
    }

    /**
     * @param upgradedClosed runs a task once upgraded connections (WebSocket sessions, which the engine asks to
     *     close when the shutdown begins and does not count as requests) have closed
     */
    static void shutDown(SproutServer server, Consumer<Runnable> upgradedClosed, GracefulShutdownCallback callback) {
        LOG.info("Commencing graceful shutdown. Waiting for active requests to complete");
        server.shutdownGracefully(result -> {
            if (result == ShutdownResult.IDLE) {
                upgradedClosed.accept(() -> report(result, callback));
            } else {
                report(result, callback);
            }
        });
    }

    private static void report(ShutdownResult result, GracefulShutdownCallback callback) {
        GracefulShutdownResult translated = translate(result);
        switch (translated) {
            case IDLE -> LOG.info("Graceful shutdown complete");
            case REQUESTS_ACTIVE -> LOG.info("Graceful shutdown aborted with one or more requests still active");
            case IMMEDIATE -> LOG.info("Graceful shutdown: the server was not running");
        }
        callback.shutdownComplete(translated);
    }

    static GracefulShutdownResult translate(ShutdownResult result) {
        return switch (result) {
            case IDLE -> GracefulShutdownResult.IDLE;
            case REQUESTS_ACTIVE -> GracefulShutdownResult.REQUESTS_ACTIVE;
            case IMMEDIATE -> GracefulShutdownResult.IMMEDIATE;
        };
    }
}
