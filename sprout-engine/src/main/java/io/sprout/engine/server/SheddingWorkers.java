package io.sprout.engine.server;

import io.sprout.engine.exchange.SlowBodies;
import io.sprout.engine.exec.Workers;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A platform pool that, whenever a task has to wait for a worker (every worker was busy when it came) or is refused,
 * takes a worker back from the slowest request body a worker is blocked reading ({@link SlowBodies}): one waiting
 * task, one shed. Without it, uploads trickling below the minimum body rate hold their workers for the whole grace
 * period while everyone else queues. The decision lives here because this is the one place every task of the
 * transport passes through, in either execution mode; which body to shed is the exchange layer's knowledge. (An
 * asynchronous exchange's continuations go to the pool directly, from the context built before this; the next
 * transport task that waits sheds for them too.)
 *
 * <p>The demand it reports is the tasks waiting less the sheds whose worker has not taken a task yet. A task that
 * starts settles one such shed whichever worker runs it: if a worker that was free anyway took it, the shed worker
 * takes the next one, so the count stays right in sum while each shed frees exactly one worker.
 *
 * <p>Thread-safe, never blocks: shedding is a scan of the blocked bodies and a wake-up of one.
 */
final class SheddingWorkers implements Workers, SlowBodies.Demand {

    private final Workers pool;
    private final SlowBodies slowBodies;
    /** Tasks handed to the pool that have not started: the work that waits for a worker. */
    private final AtomicInteger waiting = new AtomicInteger();
    /** Bodies shed for waiting tasks whose freed worker no task has started on yet. */
    private final AtomicInteger freeing = new AtomicInteger();

    SheddingWorkers(Workers pool, SlowBodies slowBodies) {
        this.pool = pool;
        this.slowBodies = slowBodies;
        slowBodies.demand(this);
    }

    @Override
    public boolean tryExecute(Runnable task) {
        waiting.incrementAndGet();
        boolean taken = pool.tryExecute(() -> {
            started();
            task.run();
        });
        if (!taken) {
            waiting.decrementAndGet();
        }
        // Busy alone would also hold the moment a task takes the last free worker; waiting alone, the moment before
        // a free worker takes it: both together mean it waits in the queue.
        if (!taken || waiting.get() > 0 && pool.busy() >= pool.max()) {
            slowBodies.shedAsNeeded();
        }
        return taken;
    }

    private void started() {
        waiting.decrementAndGet();
        if (freeing.get() > 0) {
            freeing.updateAndGet(count -> Math.max(0, count - 1));
        }
    }

    @Override
    public int unmet() {
        return waiting.get() - freeing.get();
    }

    @Override
    public void shed() {
        freeing.incrementAndGet();
    }

    @Override
    public int busy() {
        return pool.busy();
    }

    @Override
    public int current() {
        return pool.current();
    }

    @Override
    public int max() {
        return pool.max();
    }

    @Override
    public void shutdownNow(Duration timeout) {
        pool.shutdownNow(timeout);
    }
}
