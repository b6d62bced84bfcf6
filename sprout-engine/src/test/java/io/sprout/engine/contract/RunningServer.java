package io.sprout.engine.contract;

import io.sprout.engine.RequestHandler;
import io.sprout.engine.ServerConfig;
import io.sprout.engine.ServerStats;
import io.sprout.engine.SproutServer;
import io.sprout.engine.server.Sprout;

import java.net.InetAddress;
import java.time.Duration;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A server on an ephemeral loopback port for one test. Closing it first waits until every connection the test
 * opened is closed and every buffer is back in the pool (the leak checks), then stops the server.
 */
final class RunningServer implements AutoCloseable {

    private static final Duration SETTLE_TIMEOUT = Duration.ofSeconds(15);

    private final SproutServer server;

    private RunningServer(SproutServer server) {
        this.server = server;
    }

    static RunningServer start(Combination combination, RequestHandler handler) {
        return start(combination, handler, UnaryOperator.identity());
    }

    static RunningServer start(Combination combination, RequestHandler handler,
            UnaryOperator<ServerConfig.Builder> customizer) {
        ServerConfig config = customizer.apply(ServerConfig.builder()
                .address(InetAddress.getLoopbackAddress())
                .port(0)
                .executionMode(combination.mode)
                .threadType(combination.threadType)
                .threadPoolSize(16)
                .selectorThreads(2)
                .serverHeader("Sprout"))
                .build();
        SproutServer server = Sprout.server(config, handler);
        server.start();
        return new RunningServer(server);
    }

    int port() {
        return server.port();
    }

    SproutServer server() {
        return server;
    }

    ServerStats stats() {
        return server.stats();
    }

    RawClient connect() {
        return RawClient.connect(port());
    }

    /** Waits for the server to have no open connection and no leased buffer. */
    void assertSettled() {
        long deadline = System.nanoTime() + SETTLE_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline
                && (stats().connectionsOpen() != 0 || stats().buffersLeased() != 0 || stats().requestsActive() != 0)) {
            sleep(10);
        }
        assertThat(stats().connectionsOpen()).as("connections still open").isZero();
        assertThat(stats().buffersLeased()).as("buffers still leased").isZero();
        assertThat(stats().requestsActive()).as("requests still active").isZero();
    }

    @Override
    public void close() {
        try {
            assertSettled();
        } finally {
            server.stop();
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
