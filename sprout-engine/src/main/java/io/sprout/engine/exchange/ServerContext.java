package io.sprout.engine.exchange;

import io.sprout.engine.RequestHandler;
import io.sprout.engine.ServerConfig;
import io.sprout.engine.ThreadType;
import io.sprout.engine.buffer.BufferPool;
import io.sprout.engine.http.HttpDate;
import io.sprout.engine.http.ParserLimits;

import java.time.Clock;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;

/**
 * What every connection of one server shares: the configuration, the handler, the workers, the buffer pool, the
 * counters, the date cache, the graceful-shutdown tracker, the exchanges that hold no thread and the timer that
 * bounds them, and the bodies that workers are blocked reading. Thread-safe; {@link #close()} stops the timer.
 *
 * <p>Public because the server package's {@code EngineServer} builds it and transport hands it to every connection: the
 * server-wide state is created by the lifecycle above and passed down.
 */
public final class ServerContext {

    private final ServerConfig config;
    private final RequestHandler handler;
    private final BufferPool pool;
    private final Counters counters = new Counters();
    private final HttpDate date = new HttpDate(Clock.systemUTC());
    private final ParserLimits parserLimits;
    private final ShutdownTracker shutdown;
    private final Executor workers;
    private final Executor rescue;
    private final LiveExchanges liveExchanges = new LiveExchanges();
    private final ScheduledThreadPoolExecutor timer;
    private final SlowBodies slowBodies;

    /**
     * @param workers runs exchange tasks on worker threads; throws
     *     {@link java.util.concurrent.RejectedExecutionException} when it cannot take one
     * @param rescue runs, on a few threads of its own, the tasks of suspended exchanges that {@code workers}
     *     refused; throws {@link java.util.concurrent.RejectedExecutionException} when it is full as well
     * @param timerThread makes the timer's one thread, on its first timeout
     */
    public ServerContext(ServerConfig config, RequestHandler handler, Executor workers, Executor rescue,
            ThreadFactory timerThread) {
        this.config = config;
        this.handler = handler;
        this.workers = workers;
        this.rescue = rescue;
        this.timer = new ScheduledThreadPoolExecutor(1, timerThread);
        this.timer.setRemoveOnCancelPolicy(true);
        this.pool = new BufferPool(config.bufferSize(), config.bufferPoolCapacity());
        this.parserLimits = new ParserLimits(config.limits().maxRequestLineLength(),
                config.limits().maxHeaderSectionSize(), config.limits().maxHeaderCount(),
                config.limits().maxChunkLineLength(), config.limits().maxTrailerSize());
        this.shutdown = new ShutdownTracker(counters);
        this.slowBodies = new SlowBodies(config.threadType() == ThreadType.PLATFORM, counters, timer);
    }

    public ServerConfig config() {
        return config;
    }

    public RequestHandler handler() {
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

    /** Where a suspended exchange's tasks go when {@link #workers()} refuses them (see {@link SerialExecutor}). */
    Executor rescue() {
        return rescue;
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
