package io.sprout.engine.hybrid;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Where plaintext hybrid connections wait without a worker: one selector on one platform thread watching every
 * connection that has no complete request head yet (new, idle between requests, or with a head arriving slowly),
 * and every connection lingering after an answer the loop sent itself. Other threads post tasks with
 * {@link #execute}; only this thread touches the parked connections and their keys. Four times a second it sweeps
 * them for their head and idle limits.
 *
 * <p>A worker that takes a connection over cancels nothing itself: the loop cancels the key before the hand-off, so
 * the worker may switch the channel to blocking mode at once. A cancelled key leaves the selector only at its next
 * selection, so a connection parked again before that is registered after a {@code selectNow}.
 */
final class ParkingLoop implements Runnable {

    private static final System.Logger LOG = System.getLogger(ParkingLoop.class.getName());
    private static final long SWEEP_PERIOD_NANOS = 250_000_000L;

    private final Selector selector;
    private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean wakeupPending = new AtomicBoolean();
    private final Set<ParkedConnection> parked = new HashSet<>();
    private final List<ParkedConnection> deferred = new ArrayList<>();
    private final ByteBuffer scratch = ByteBuffer.allocate(4096);
    private final Thread thread;
    private volatile boolean running = true;
    private volatile boolean terminated;

    ParkingLoop(String name) throws IOException {
        this.selector = Selector.open();
        this.thread = new Thread(this, name);
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** Runs the task on the loop thread soon; any thread, never blocks. After the loop has ended, runs it at once. */
    void execute(Runnable task) {
        tasks.add(task);
        if (terminated) {
            runTasks();
        } else if (Thread.currentThread() != thread && wakeupPending.compareAndSet(false, true)) {
            selector.wakeup();
        }
    }

    Selector selector() {
        return selector;
    }

    /** Loop thread: a connection whose old key the selector still holds; registered after the next selection. */
    void registerAfterSelection(ParkedConnection connection) {
        deferred.add(connection);
    }

    void added(ParkedConnection connection) {
        parked.add(connection);
    }

    void removed(ParkedConnection connection) {
        parked.remove(connection);
    }

    /** Loop thread: a buffer for bytes read only to be dropped (lingering connections). */
    ByteBuffer scratch() {
        return scratch.clear();
    }

    /** Loop thread: closes every parked connection that waits for a next request (graceful shutdown). */
    void closeIdle() {
        for (ParkedConnection connection : List.copyOf(parked)) {
            connection.closeIfIdle();
        }
    }

    /** Stops the loop, closing every parked connection, and waits for the thread to end. */
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
                if (!deferred.isEmpty()) {
                    // Flushes the cancelled keys that kept these connections from registering again.
                    selector.selectNow(this::dispatch);
                    List<ParkedConnection> again = List.copyOf(deferred);
                    deferred.clear();
                    again.forEach(ParkedConnection::register);
                }
                long wait = Math.max(1, (nextSweep - System.nanoTime()) / 1_000_000);
                if (tasks.isEmpty() && deferred.isEmpty()) {
                    selector.select(this::dispatch, wait);
                } else {
                    selector.selectNow(this::dispatch);
                }
                wakeupPending.set(false);
                long now = System.nanoTime();
                if (now - nextSweep >= 0) {
                    for (ParkedConnection connection : List.copyOf(parked)) {
                        connection.checkTimeouts(now);
                    }
                    nextSweep = now + SWEEP_PERIOD_NANOS;
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.ERROR, "Parking loop " + thread.getName() + " failed", e);
        } finally {
            runTasks();
            deferred.forEach(ParkedConnection::closeNow);
            deferred.clear();
            for (ParkedConnection connection : List.copyOf(parked)) {
                connection.closeNow();
            }
            try {
                selector.close();
            } catch (IOException e) {
                LOG.log(Level.DEBUG, "Closing the parking selector failed", e);
            }
            // From now on tasks run where they are posted; a connection they would park finds the selector closed.
            terminated = true;
            runTasks();
        }
    }

    /** One connection's failure is contained: it is closed, the loop and the others go on. */
    private void dispatch(SelectionKey key) {
        ParkedConnection connection = (ParkedConnection) key.attachment();
        try {
            connection.onReadable();
        } catch (RuntimeException bug) {
            LOG.log(Level.ERROR, "Closing a parked connection after an unexpected failure", bug);
            connection.closeNow();
        }
    }

    private synchronized void runTasks() {
        Runnable task;
        while ((task = tasks.poll()) != null) {
            try {
                task.run();
            } catch (RuntimeException e) {
                LOG.log(Level.ERROR, "Parking loop task failed", e);
            }
        }
    }
}
