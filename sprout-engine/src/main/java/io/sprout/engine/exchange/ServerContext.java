package io.sprout.engine.exchange;

import io.sprout.engine.HttpHandler;
import io.sprout.engine.ServerConfig;
import io.sprout.engine.buffer.BufferPool;
import io.sprout.engine.http.HttpDate;
import io.sprout.engine.http.ParserLimits;

import java.time.Clock;

/**
 * What every connection of one server shares: the configuration, the handler, the buffer pool, the counters, the
 * date cache and the graceful-shutdown tracker. Thread-safe.
 */
public final class ServerContext {

    private final ServerConfig config;
    private final HttpHandler handler;
    private final BufferPool pool;
    private final Counters counters = new Counters();
    private final HttpDate date = new HttpDate(Clock.systemUTC());
    private final ParserLimits parserLimits;
    private final ShutdownTracker shutdown;

    public ServerContext(ServerConfig config, HttpHandler handler) {
        this.config = config;
        this.handler = handler;
        this.pool = new BufferPool(config.bufferSize(), config.bufferPoolCapacity());
        this.parserLimits = new ParserLimits(config.limits().maxRequestLineLength(),
                config.limits().maxHeaderSectionSize(), config.limits().maxHeaderCount(),
                config.limits().maxChunkLineLength(), config.limits().maxTrailerSize());
        this.shutdown = new ShutdownTracker(counters);
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
}
