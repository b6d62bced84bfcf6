package io.sprout.engine.nio;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.HashSet;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One selector on one platform thread. It owns its connections' selection keys: other threads never touch a key
 * but post a task with {@link #execute}. Nothing here blocks except {@code select}. Twice a second it sweeps its
 * connections for idle and head-deadline timeouts.
 */
final class EventLoop implements Runnable {

    private static final System.Logger LOG = System.getLogger(EventLoop.class.getName());
    private static final long SWEEP_PERIOD_NANOS = 500_000_000L;

    private final Selector selector;
    private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean wakeupPending = new AtomicBoolean();
    private final Set<NioConnection> connections = new HashSet<>();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile boolean terminated;

    EventLoop(String name) throws IOException {
        this.selector = Selector.open();
        this.thread = new Thread(this, name);
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** Runs the task on the loop thread soon; callable from any thread, never blocks. */
    void execute(Runnable task) {
        tasks.add(task);
        if (terminated) {
            // The loop has ended (server stopped): nothing else will run its tasks, and they only release resources.
            runTasks();
        } else if (Thread.currentThread() != thread && wakeupPending.compareAndSet(false, true)) {
            selector.wakeup();
        }
    }

    Selector selector() {
        return selector;
    }

    void added(NioConnection connection) {
        connections.add(connection);
    }

    void removed(NioConnection connection) {
        connections.remove(connection);
    }

    /** Closes every connection waiting for a next request (loop thread). */
    void closeIdle() {
        for (NioConnection connection : Set.copyOf(connections)) {
            connection.closeIfIdle();
        }
    }

    /** Stops the loop, closing every connection, and waits for the thread to end. */
    void stop() {
        running = false;
        selector.wakeup();
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void run() {
        long nextSweep = System.nanoTime() + SWEEP_PERIOD_NANOS;
        try {
            while (running) {
                runTasks();
                long wait = Math.max(1, (nextSweep - System.nanoTime()) / 1_000_000);
                if (tasks.isEmpty()) {
                    selector.select(this::dispatch, wait);
                } else {
                    selector.selectNow(this::dispatch);
                }
                wakeupPending.set(false);
                long now = System.nanoTime();
                if (now - nextSweep >= 0) {
                    sweep(now);
                    nextSweep = now + SWEEP_PERIOD_NANOS;
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.ERROR, "Event loop " + thread.getName() + " failed", e);
        } finally {
            runTasks();
            for (NioConnection connection : Set.copyOf(connections)) {
                connection.close();
            }
            try {
                selector.close();
            } catch (IOException e) {
                LOG.log(Level.DEBUG, "Closing the selector failed", e);
            }
            terminated = true;
            runTasks();
        }
    }

    /** One connection's failure is contained: it is closed, the loop and its other connections go on. */
    private void dispatch(SelectionKey key) {
        NioConnection connection = (NioConnection) key.attachment();
        try {
            connection.onReady(key);
        } catch (RuntimeException bug) {
            LOG.log(Level.ERROR, "Closing a connection after an unexpected failure", bug);
            connection.close();
        }
    }

    private synchronized void runTasks() {
        Runnable task;
        while ((task = tasks.poll()) != null) {
            try {
                task.run();
            } catch (RuntimeException e) {
                LOG.log(Level.ERROR, "Event loop task failed", e);
            }
        }
    }

    private void sweep(long now) {
        for (NioConnection connection : Set.copyOf(connections)) {
            connection.checkTimeouts(now);
        }
    }
}
