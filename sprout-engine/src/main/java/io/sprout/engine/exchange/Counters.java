package io.sprout.engine.exchange;

import java.util.concurrent.atomic.LongAdder;

/** The live counters behind {@link io.sprout.engine.ServerStats}; updated by transports and exchanges. */
public final class Counters {

    public final LongAdder connectionsOpen = new LongAdder();
    public final LongAdder connectionsIdle = new LongAdder();
    public final LongAdder connectionsAccepted = new LongAdder();
    public final LongAdder connectionsRejected = new LongAdder();
    public final LongAdder requestsActive = new LongAdder();
    public final LongAdder requestsTotal = new LongAdder();
    public final LongAdder bytesIn = new LongAdder();
    public final LongAdder bytesOut = new LongAdder();
}
