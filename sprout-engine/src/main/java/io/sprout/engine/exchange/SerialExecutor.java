package io.sprout.engine.exchange;

import java.lang.System.Logger.Level;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs one exchange's tasks on workers one at a time, in order: at most one worker drains the queue at any moment.
 * The thread running the handler holds the slot from the start ({@link #occupied}), so callbacks scheduled during
 * the handler wait until it returns. Thread-safe; {@link #execute} never blocks.
 *
 * <p>When the worker pool refuses the drain (its queue is full, or it is shutting down), the drain runs on a new
 * virtual thread instead: losing a task would lose an exchange's completion and the buffers it holds.
 */
final class SerialExecutor {

    private static final System.Logger LOG = System.getLogger(SerialExecutor.class.getName());

    private final Executor workers;
    private final Queue<Runnable> queue = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean running;

    private SerialExecutor(Executor workers, boolean occupied) {
        this.workers = workers;
        this.running = new AtomicBoolean(occupied);
    }

    /** An executor whose slot the calling thread already holds; it gives it up with {@link #release()}. */
    static SerialExecutor occupied(Executor workers) {
        return new SerialExecutor(workers, true);
    }

    void execute(Runnable task) {
        queue.add(task);
        schedule();
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
        try {
            workers.execute(this::drain);
        } catch (RejectedExecutionException overloadedOrStopping) {
            Thread.ofVirtual().start(this::drain);
        }
    }

    private void drain() {
        Runnable task;
        while ((task = queue.poll()) != null) {
            try {
                task.run();
            } catch (RuntimeException | Error e) {
                LOG.log(Level.ERROR, "An exchange task failed", e);
            }
        }
        release();
    }
}
