package io.sprout.engine;

import io.sprout.engine.exchange.SlowBodies;
import io.sprout.engine.exec.Workers;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * A platform pool that, whenever a task has to wait for a worker (every worker was busy when it came) or is refused,
 * takes a worker back from the slowest request body a worker is blocked reading ({@link SlowBodies}): one waiting
 * task, one shed. Without it, uploads trickling below the minimum body rate hold their workers for the whole grace
 * period while everyone else queues. The decision lives here because this is the one place every task of the
 * transport passes through, in either execution mode; which body to shed is the exchange layer's knowledge. (An
 * asynchronous exchange's continuations go to the pool directly, from the context built before this; the next
 * transport task that waits sheds for them too.)
 *
 * <p>Thread-safe, never blocks: shedding is a scan of the blocked bodies and a wake-up of one.
 */
final class SheddingWorkers implements Workers {

    private final Workers pool;
    private final SlowBodies slowBodies;
    /** Tasks handed to the pool that have not started: the work that waits for a worker. */
    private final AtomicInteger waiting = new AtomicInteger();
    /** One object for every shed asked for, rather than a method reference made per task. */
    private final BooleanSupplier workStillWaits = this::workWaits;

    SheddingWorkers(Workers pool, SlowBodies slowBodies) {
        this.pool = pool;
        this.slowBodies = slowBodies;
    }

    @Override
    public boolean tryExecute(Runnable task) {
        waiting.incrementAndGet();
        boolean taken = pool.tryExecute(() -> {
            waiting.decrementAndGet();
            task.run();
        });
        if (!taken) {
            waiting.decrementAndGet();
        }
        if (!taken || workWaits()) {
            slowBodies.shedOne(workStillWaits, pool.max());
        }
        return taken;
    }

    /**
     * Every worker is busy and a task has not started: it waits in the queue. (Busy alone would also hold the moment
     * a task takes the last free worker; a task not started alone, the moment before a free worker takes it.)
     */
    private boolean workWaits() {
        return waiting.get() > 0 && pool.busy() >= pool.max();
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
    public boolean underPressure() {
        return pool.underPressure();
    }

    @Override
    public void shutdownNow(Duration timeout) {
        pool.shutdownNow(timeout);
    }
}
