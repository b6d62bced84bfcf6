package io.sprout.engine.exchange;

import java.lang.System.Logger.Level;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs one exchange's tasks on workers one at a time, in order: at most one worker drains the queue at any moment.
 * The thread running the handler holds the slot from the start ({@link #occupied}), so callbacks scheduled during
 * the handler wait until it returns. Thread-safe; {@link #execute} never blocks.
 *
 * <p>Losing a task would lose an exchange's completion and the buffers it holds, so a refused drain is never
 * dropped, and never given an unbounded thread either:
 * <ol>
 *   <li>the workers refuse (pool and queue full, or stopping): the server's few rescue threads take it
 *       ({@link ServerContext#rescue()}, counted there);</li>
 *   <li>they refuse too: the exchange is aborted (its connection closed, so its reads and writes fail at once and
 *       the client learns now rather than after its own timeout), counted once in
 *       {@link Counters#exchangesRefused}, and the drain is offered again from the server's timer every
 *       10 ms until a thread takes what is left, which by then only ends the exchange;</li>
 *   <li>the timer has stopped too (the server has stopped): the calling thread ends it, there being no other.</li>
 * </ol>
 */
final class SerialExecutor {

    private static final System.Logger LOG = System.getLogger(SerialExecutor.class.getName());
    private static final long RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private final ServerContext context;
    private final Runnable abort;
    private final Queue<Runnable> queue = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean running;
    /** Whether the exchange has been aborted for want of a thread; touched only while holding the slot. */
    private boolean refused;

    private SerialExecutor(ServerContext context, Runnable abort, boolean occupied) {
        this.context = context;
        this.abort = abort;
        this.running = new AtomicBoolean(occupied);
    }

    /**
     * An executor whose slot the calling thread already holds; it gives it up with {@link #release()}.
     *
     * @param abort aborts the exchange when no thread at all takes its tasks; called at most once, on whichever
     *     thread scheduled them, so it must not block
     */
    static SerialExecutor occupied(ServerContext context, Runnable abort) {
        return new SerialExecutor(context, abort, true);
    }

    void execute(Runnable task) {
        queue.add(task);
        schedule();
    }

    /**
     * Runs {@code task} on the calling thread if no task is running or queued, then gives the slot up (a task queued
     * meanwhile runs on a worker after it). Tasks queued before it keep their turn: then it does not run.
     *
     * @return whether it ran
     */
    boolean runNow(Runnable task) {
        if (!tryOccupy()) {
            return false;
        }
        if (!queue.isEmpty()) {
            release();
            return false;
        }
        try {
            runLogged(task);
        } finally {
            release();
        }
        return true;
    }

    /**
     * Takes the slot on the calling thread if no task is running, for work that must happen now (the server is
     * stopping); pair with {@link #release()}.
     */
    boolean tryOccupy() {
        return running.compareAndSet(false, true);
    }

    /** Gives up the slot; queued tasks then run on a worker. */
    void release() {
        running.set(false);
        schedule();
    }

    /** Drops queued tasks that have not started (the exchange has ended). */
    void clear() {
        queue.clear();
    }

    private void schedule() {
        if (queue.isEmpty() || !running.compareAndSet(false, true)) {
            return;
        }
        handOff();
    }

    /** Holding the slot: gives the drain to a worker, else as the class comment says. */
    private void handOff() {
        if (tryDrainOn(context.workers()) || tryDrainOn(context.rescue())) {
            return;
        }
        if (!refused) {
            refused = true;
            context.counters().exchangesRefused.increment();
            // DEBUG, as for connections rejected under overload: the counter is the signal, and a log line per
            // exchange would add to the overload.
            LOG.log(Level.DEBUG, "No worker or rescue thread free: aborting a suspended exchange");
            abort.run();
        }
        try {
            context.timer().schedule(this::handOff, RETRY_NANOS, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException stopped) {
            drain();
        }
    }

    private boolean tryDrainOn(Executor executor) {
        try {
            executor.execute(this::drain);
            return true;
        } catch (RejectedExecutionException overloadedOrStopping) {
            return false;
        }
    }

    private void drain() {
        Runnable task;
        while ((task = queue.poll()) != null) {
            runLogged(task);
        }
        release();
    }

    /** A task's failure is logged, not passed on: it must not stop the tasks after it or lose the slot. */
    private static void runLogged(Runnable task) {
        try {
            task.run();
        } catch (RuntimeException | Error e) {
            LOG.log(Level.ERROR, "An exchange task failed", e);
        }
    }
}
