package io.sprout.engine;

import io.sprout.engine.exchange.Counters;
import io.sprout.engine.exchange.ServerContext;
import io.sprout.engine.exec.Workers;

/** {@link ServerStats} over the counters, pool and workers of the server's current (or last) run. */
final class EngineStats implements ServerStats {

    private record Run(ServerContext context, Workers workers) {
    }

    private volatile Run run;

    void attach(ServerContext context, Workers workers) {
        run = new Run(context, workers);
    }

    private Counters counters() {
        Run current = run;
        return current == null ? null : current.context.counters();
    }

    private static long sum(java.util.concurrent.atomic.LongAdder adder) {
        return adder.sum();
    }

    @Override
    public long connectionsOpen() {
        Counters counters = counters();
        return counters == null ? 0 : sum(counters.connectionsOpen);
    }

    @Override
    public long connectionsIdle() {
        Counters counters = counters();
        return counters == null ? 0 : sum(counters.connectionsIdle);
    }

    @Override
    public long connectionsAccepted() {
        Counters counters = counters();
        return counters == null ? 0 : sum(counters.connectionsAccepted);
    }

    @Override
    public long connectionsRejected() {
        Counters counters = counters();
        return counters == null ? 0 : sum(counters.connectionsRejected);
    }

    @Override
    public long requestsActive() {
        Counters counters = counters();
        return counters == null ? 0 : sum(counters.requestsActive);
    }

    @Override
    public long requestsTotal() {
        Counters counters = counters();
        return counters == null ? 0 : sum(counters.requestsTotal);
    }

    @Override
    public long bytesIn() {
        Counters counters = counters();
        return counters == null ? 0 : sum(counters.bytesIn);
    }

    @Override
    public long bytesOut() {
        Counters counters = counters();
        return counters == null ? 0 : sum(counters.bytesOut);
    }

    @Override
    public long bufferLeases() {
        Run current = run;
        return current == null ? 0 : current.context.pool().leases();
    }

    @Override
    public long bufferHits() {
        Run current = run;
        return current == null ? 0 : current.context.pool().hits();
    }

    @Override
    public long bufferMisses() {
        Run current = run;
        return current == null ? 0 : current.context.pool().misses();
    }

    @Override
    public long buffersLeased() {
        Run current = run;
        return current == null ? 0 : current.context.pool().leased();
    }

    @Override
    public long workersBusy() {
        Run current = run;
        return current == null ? 0 : current.workers.busy();
    }

    @Override
    public long workersCurrent() {
        Run current = run;
        return current == null ? 0 : current.workers.current();
    }

    @Override
    public long workersMax() {
        Run current = run;
        return current == null ? 0 : current.workers.max();
    }
}
