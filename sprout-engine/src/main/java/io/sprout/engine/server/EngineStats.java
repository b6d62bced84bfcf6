package io.sprout.engine.server;

import io.sprout.engine.ServerStats;
import io.sprout.engine.TimeoutKind;
import io.sprout.engine.buffer.BufferPool;
import io.sprout.engine.exchange.Counters;
import io.sprout.engine.exchange.ServerContext;
import io.sprout.engine.exec.RescueExecutor;
import io.sprout.engine.exec.Workers;

import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * {@link ServerStats} over the counters, pools and workers of the server's current (or last) run; 0 before any.
 * The buffer figures add up both pools: the I/O buffers and, with TLS, the record buffers.
 */
final class EngineStats implements ServerStats {

    private record Run(ServerContext context, Workers workers, RescueExecutor rescue, BufferPool recordPool) {

        Counters counters() {
            return context.counters();
        }

        long pools(ToLongFunction<BufferPool> figure) {
            return figure.applyAsLong(context.pool()) + (recordPool == null ? 0 : figure.applyAsLong(recordPool));
        }
    }

    private volatile Run run;

    /** @param recordPool the TLS record buffers' pool, or {@code null} without TLS */
    void attach(ServerContext context, Workers workers, RescueExecutor rescue, BufferPool recordPool) {
        run = new Run(context, workers, rescue, recordPool);
    }

    private long read(ToLongFunction<Run> value) {
        Run current = run;
        return current == null ? 0 : value.applyAsLong(current);
    }

    @Override
    public long connectionsOpen() {
        return read(run -> run.counters().connectionsOpen.sum());
    }

    @Override
    public long connectionsIdle() {
        return read(run -> run.counters().connectionsIdle.sum());
    }

    @Override
    public long connectionsAccepted() {
        return read(run -> run.counters().connectionsAccepted.sum());
    }

    @Override
    public long connectionsRejected() {
        return read(run -> run.counters().connectionsRejected.sum());
    }

    @Override
    public long connectionsShed() {
        return read(run -> run.counters().connectionsShed.sum());
    }

    @Override
    public long timeouts(TimeoutKind kind) {
        return read(run -> run.counters().timeouts(kind));
    }

    @Override
    public long requestsActive() {
        return read(run -> run.counters().requestsActive.sum());
    }

    @Override
    public long exchangesDetached() {
        return read(run -> run.context().liveExchanges().count());
    }

    @Override
    public long tasksRescued() {
        return read(run -> run.rescue().rescued());
    }

    @Override
    public long exchangesRefused() {
        return read(run -> run.counters().exchangesRefused.sum());
    }

    @Override
    public long requestsTotal() {
        return read(run -> run.counters().requestsTotal.sum());
    }

    @Override
    public long requestsShed() {
        return read(run -> run.counters().requestsShed.sum());
    }

    @Override
    public long bytesIn() {
        return read(run -> run.counters().bytesIn.sum());
    }

    @Override
    public long bytesOut() {
        return read(run -> run.counters().bytesOut.sum());
    }

    @Override
    public long bufferLeases() {
        return read(run -> run.pools(BufferPool::leases));
    }

    @Override
    public long bufferHits() {
        return read(run -> run.pools(BufferPool::hits));
    }

    @Override
    public long bufferMisses() {
        return read(run -> run.pools(BufferPool::misses));
    }

    @Override
    public long buffersLeased() {
        return read(run -> run.pools(BufferPool::leased));
    }

    @Override
    public long workersBusy() {
        return read(run -> run.workers.busy());
    }

    @Override
    public long workersCurrent() {
        return read(run -> run.workers.current());
    }

    @Override
    public long workersMax() {
        return read(run -> run.workers.max());
    }

    @Override
    public long http2StreamsActive() {
        return read(run -> run.counters().http2StreamsActive.sum());
    }

    @Override
    public long http2ResetsReceived() {
        return read(run -> run.counters().http2ResetsReceived.sum());
    }

    @Override
    public long http2ResetsSent() {
        return read(run -> run.counters().http2ResetsSent.sum());
    }

    @Override
    public Map<String, Long> http2GoAways() {
        Run current = run;
        return current == null ? Map.of() : current.counters().goAways();
    }
}
