package io.sprout.engine.exchange;

import io.sprout.engine.HttpHandler;
import io.sprout.engine.ServerConfig;
import io.sprout.engine.ThreadType;
import io.sprout.engine.buffer.BufferPool;
import io.sprout.engine.http.HttpDate;
import io.sprout.engine.http.ParserLimits;

import java.time.Clock;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;

/**
 * What every connection of one server shares: the configuration, the handler, the workers, the buffer pool, the
 * counters, the date cache, the graceful-shutdown tracker, the exchanges that hold no thread and the timer that
 * bounds them, and the bodies that workers are blocked reading. Thread-safe; {@link #close()} stops the timer.
 */
public final class ServerContext {

    private final ServerConfig config;
    private final HttpHandler handler;
    private final BufferPool pool;
    private final Counters counters = new Counters();
    private final HttpDate date = new HttpDate(Clock.systemUTC());
    private final ParserLimits parserLimits;
    private final ShutdownTracker shutdown;
    private final Executor workers;
    private final LiveExchanges liveExchanges = new LiveExchanges();
    private final ScheduledThreadPoolExecutor timer;
    private final SlowBodies slowBodies;

    /**
     * @param workers runs exchange tasks on worker threads; throws
     *     {@link java.util.concurrent.RejectedExecutionException} when it cannot take one
     */
    public ServerContext(ServerConfig config, HttpHandler handler, Executor workers) {
        this.config = config;
        this.handler = handler;
        this.workers = workers;
        this.timer = new ScheduledThreadPoolExecutor(1, task -> {
            Thread thread = new Thread(task, "sprout-timer");
            thread.setDaemon(true);
            return thread;
        });
        this.timer.setRemoveOnCancelPolicy(true);
        this.pool = new BufferPool(config.bufferSize(), config.bufferPoolCapacity());
        this.parserLimits = new ParserLimits(config.limits().maxRequestLineLength(),
                config.limits().maxHeaderSectionSize(), config.limits().maxHeaderCount(),
                config.limits().maxChunkLineLength(), config.limits().maxTrailerSize());
        this.shutdown = new ShutdownTracker(counters);
        this.slowBodies = new SlowBodies(config.threadType() == ThreadType.PLATFORM
                && config.minDataRates().bodyBytesPerSecond() > 0, counters, timer);
    }

    public ServerConfig config() {
        return config;
    }

    public HttpHandler handler() {
        return handler;
    }

    public BufferPool pool() {
        return pool;
    }

    public Counters counters() {
        return counters;
    }

    public HttpDate date() {
        return date;
    }

    public ParserLimits parserLimits() {
        return parserLimits;
    }

    public ShutdownTracker shutdown() {
        return shutdown;
    }

    public LiveExchanges liveExchanges() {
        return liveExchanges;
    }

    /** The bodies workers are blocked reading, for taking a worker back when the pool is saturated. */
    public SlowBodies slowBodies() {
        return slowBodies;
    }

    Executor workers() {
        return workers;
    }

    /** Fires exchange timeouts; its tasks only hand work to {@link #workers()}, so one thread serves them all. */
    ScheduledExecutorService timer() {
        return timer;
    }

    /** Stops the timer; call once the server has stopped. */
    public void close() {
        timer.shutdownNow();
    }
}
