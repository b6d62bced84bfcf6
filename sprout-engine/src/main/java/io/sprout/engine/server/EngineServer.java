package io.sprout.engine.server;

import io.sprout.engine.RequestHandler;
import io.sprout.engine.PortBindException;
import io.sprout.engine.ServerConfig;
import io.sprout.engine.ServerStats;
import io.sprout.engine.ShutdownResult;
import io.sprout.engine.SproutServer;
import io.sprout.engine.ThreadType;
import io.sprout.engine.exchange.ServerContext;
import io.sprout.engine.exec.RescueExecutor;
import io.sprout.engine.exec.ThreadNames;
import io.sprout.engine.exec.Workers;
import io.sprout.engine.tls.ServerTls;
import io.sprout.engine.transport.BindFailure;
import io.sprout.engine.transport.LoopTransport;
import io.sprout.engine.transport.Transport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;

/**
 * The server's lifecycle under one monitor: each {@link #start()} builds a fresh context (pool, counters),
 * workers and transport; {@link #stop()} tears them down. Both are idempotent.
 */
final class EngineServer implements SproutServer {

    private static final Duration WORKER_STOP_TIMEOUT = Duration.ofSeconds(5);

    private final ServerConfig config;
    private final RequestHandler handler;
    private final Object monitor = new Object();
    private final EngineStats stats = new EngineStats();
    private ServerContext context;
    private Workers workers;
    private RescueExecutor rescue;
    private Transport transport;

    EngineServer(ServerConfig config, RequestHandler handler) {
        this.config = config;
        this.handler = handler;
    }

    @Override
    public void start() {
        synchronized (monitor) {
            if (transport != null) {
                return;
            }
            // Asked first: a TLS configuration whose contexts cannot be had fails the start before any thread exists.
            ServerTls tls = config.tls() == null ? null
                    : ServerTls.start(config.tls(), config.http2() != null
                            ? List.of(ServerTls.H2, ServerTls.HTTP_1_1) : List.of(ServerTls.HTTP_1_1),
                            config.bufferPoolCapacity());
            ThreadNames names = new ThreadNames(config.port());
            Workers pool = switch (config.threadType()) {
                case PLATFORM -> Workers.platform(config.threadPoolSize(), config.workerQueueCapacity(),
                        names.daemons("worker"));
                case VIRTUAL -> Workers.virtual();
            };
            RescueExecutor startingRescue = new RescueExecutor(names.daemons("rescue"));
            ServerContext starting = new ServerContext(config, handler, task -> {
                if (!pool.tryExecute(task)) {
                    throw new RejectedExecutionException("The workers are saturated or stopped");
                }
            }, task -> {
                if (!startingRescue.tryExecute(task)) {
                    throw new RejectedExecutionException("The rescue threads are saturated or stopped");
                }
            }, names.daemon("timer"));
            // Virtual threads are never saturated: nothing to shed for.
            Workers startingWorkers = config.threadType() == ThreadType.PLATFORM
                    ? new SheddingWorkers(pool, starting.slowBodies()) : pool;
            Transport startingTransport = new LoopTransport(starting, startingWorkers, tls, config.executionMode(),
                    names);
            try {
                startingTransport.start();
            } catch (IOException e) {
                startingWorkers.shutdownNow(WORKER_STOP_TIMEOUT);
                startingRescue.shutdownNow(WORKER_STOP_TIMEOUT);
                starting.close();
                if (e instanceof BindFailure failure) {
                    throw new PortBindException(failure.port(), (IOException) failure.getCause());
                }
                throw new UncheckedIOException("Could not start the " + config.executionMode() + " transport", e);
            }
            context = starting;
            workers = startingWorkers;
            rescue = startingRescue;
            transport = startingTransport;
            stats.attach(starting, startingWorkers, startingRescue, tls == null ? null : tls.pool());
        }
    }

    @Override
    public int port() {
        synchronized (monitor) {
            return transport == null ? -1 : transport.ports().getFirst();
        }
    }

    @Override
    public List<Integer> ports() {
        synchronized (monitor) {
            return transport == null ? List.of()
                    : transport.ports().stream().filter(port -> port >= 0).toList();
        }
    }

    @Override
    public void shutdownGracefully(Consumer<ShutdownResult> callback) {
        synchronized (monitor) {
            if (transport == null) {
                callback.accept(ShutdownResult.IMMEDIATE);
                return;
            }
            transport.closeListener();
            context.shutdown().begin(callback);
            transport.closeIdleConnections();
            context.liveExchanges().shutdownUpgraded();
        }
    }

    @Override
    public void stop() {
        synchronized (monitor) {
            if (transport == null) {
                return;
            }
            context.shutdown().stopped();
            transport.stop();
            context.liveExchanges().abortAll(WORKER_STOP_TIMEOUT);
            workers.shutdownNow(WORKER_STOP_TIMEOUT);
            rescue.shutdownNow(WORKER_STOP_TIMEOUT);
            context.close();
            transport = null;
        }
    }

    @Override
    public boolean running() {
        synchronized (monitor) {
            return transport != null;
        }
    }

    @Override
    public ServerConfig config() {
        return config;
    }

    @Override
    public ServerStats stats() {
        return stats;
    }
}
