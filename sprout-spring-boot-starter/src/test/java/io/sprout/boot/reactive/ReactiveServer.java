package io.sprout.boot.reactive;

import io.sprout.engine.ExecutionMode;
import io.sprout.engine.RequestHandler;
import io.sprout.engine.ServerConfig;
import io.sprout.engine.ServerStats;
import io.sprout.engine.SproutServer;
import io.sprout.engine.ThreadType;
import io.sprout.engine.server.Sprout;
import org.junit.jupiter.params.provider.Arguments;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.server.reactive.HttpHandler;

import java.net.URI;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An engine server on an ephemeral port running a Spring {@link HttpHandler} through {@link SproutHttpHandlerAdapter},
 * for one test. Closing it stops the server and checks that every pooled buffer came back, the leak check every
 * server test ends with.
 */
final class ReactiveServer implements AutoCloseable {

    private final SproutServer server;

    private ReactiveServer(SproutServer server) {
        this.server = server;
    }

    /** The four engine combinations, as (execution mode, thread type): every scenario runs in each. */
    static Stream<Arguments> combinations() {
        return Stream.of(ExecutionMode.values())
                .flatMap(mode -> Stream.of(ThreadType.values()).map(threads -> Arguments.of(mode, threads)));
    }

    static ReactiveServer start(ExecutionMode mode, ThreadType threads, HttpHandler handler) {
        return start(mode, threads, handler, DefaultDataBufferFactory.sharedInstance);
    }

    static ReactiveServer start(ExecutionMode mode, ThreadType threads, HttpHandler handler,
            DataBufferFactory bufferFactory) {
        return start(mode, threads, new SproutHttpHandlerAdapter(handler, bufferFactory));
    }

    /** @param adapter the adapter, or an engine handler around it */
    static ReactiveServer start(ExecutionMode mode, ThreadType threads, RequestHandler adapter) {
        return start(mode, threads, adapter, UnaryOperator.identity());
    }

    /** @param more the engine's configuration beyond the tests' small engine: TLS, HTTP/2, socket buffers */
    static ReactiveServer start(ExecutionMode mode, ThreadType threads, RequestHandler adapter,
            UnaryOperator<ServerConfig.Builder> more) {
        // A small engine: no test needs 200 threads.
        ServerConfig config = more.apply(ServerConfig.builder().port(0).executionMode(mode).threadType(threads)
                .threadPoolSize(16).selectorThreads(1)).build();
        SproutServer server = Sprout.server(config, adapter);
        server.start();
        return new ReactiveServer(server);
    }

    URI uri(String pathAndQuery) {
        return URI.create("http://127.0.0.1:" + server.port() + pathAndQuery);
    }

    int port() {
        return server.port();
    }

    ServerStats stats() {
        return server.stats();
    }

    @Override
    public void close() {
        ServerStats stats = server.stats();
        server.stop();
        assertThat(stats.buffersLeased()).as("buffers still leased after stop").isZero();
    }
}
