package io.sprout.engine.transport;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * One selector on one platform thread: an event loop, the same in either execution mode. It owns its members'
 * selection keys: other threads never touch a key but post a task with {@link #execute}. Nothing here blocks except
 * {@code select}. Every sweep period it asks each member to check its time limits.
 *
 * <p>A key cancelled on this thread leaves the selector only at its next selection; a channel registered again
 * before that would fail, so {@link #afterNextSelection} runs such a registration after a {@code selectNow}.
 */
final class SelectorLoop implements Runnable {

    /** A connection the loop watches; every method is called on the loop thread. */
    interface Member {

        /** The selector reports the member's socket ready. */
        void onReady(SelectionKey key);

        /** The periodic sweep: enforce the member's time limits as of {@code now}. */
        void checkTimeouts(long now);

        /** Graceful shutdown: close the member if it waits for a next request. */
        void closeIfIdle();

        /** Close at once (the loop is stopping, or the member failed). */
        void close();
    }

    private static final System.Logger LOG = System.getLogger(SelectorLoop.class.getName());

    private final Selector selector;
    private final long sweepPeriodNanos;
    private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean wakeupPending = new AtomicBoolean();
    private final Set<Member> members = new HashSet<>();
    private final List<Runnable> afterSelection = new ArrayList<>();
    private final Thread thread;
    /** {@link #dispatch(SelectionKey)} as the selector's action, made once: a reference per select was an object. */
    private final Consumer<SelectionKey> dispatcher = this::dispatch;
    private volatile boolean running = true;
    private volatile boolean terminated;

    SelectorLoop(String name, long sweepPeriodNanos) throws IOException {
        this.selector = Selector.open();
        this.sweepPeriodNanos = sweepPeriodNanos;
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

    /** Loop thread: runs {@code task} once the selector has let go of the keys cancelled so far. */
    void afterNextSelection(Runnable task) {
        afterSelection.add(task);
    }

    void added(Member member) {
        members.add(member);
    }

    void removed(Member member) {
        members.remove(member);
    }

    /** Loop thread: closes every member waiting for a next request. */
    void closeIdle() {
        for (Member member : List.copyOf(members)) {
            member.closeIfIdle();
        }
    }

    /** Stops the loop, closing every member, and waits for the thread to end. */
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
        long nextSweep = System.nanoTime() + sweepPeriodNanos;
        try {
            while (running) {
                runTasks();
                if (!afterSelection.isEmpty()) {
                    selector.selectNow(dispatcher);
                    List<Runnable> due = List.copyOf(afterSelection);
                    afterSelection.clear();
                    due.forEach(Runnable::run);
                }
                long wait = Math.max(1, (nextSweep - System.nanoTime()) / 1_000_000);
                if (tasks.isEmpty() && afterSelection.isEmpty()) {
                    selector.select(dispatcher, wait);
                } else {
                    selector.selectNow(dispatcher);
                }
                wakeupPending.set(false);
                long now = System.nanoTime();
                if (now - nextSweep >= 0) {
                    sweep(now);
                    nextSweep = now + sweepPeriodNanos;
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.ERROR, "Selector loop " + thread.getName() + " failed", e);
        } finally {
            runTasks();
            // Registrations still waiting join the members, to be closed with them: the selector is going away.
            List<Runnable> due = List.copyOf(afterSelection);
            afterSelection.clear();
            due.forEach(Runnable::run);
            for (Member member : List.copyOf(members)) {
                member.close();
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

    /** One member's failure is contained: it is closed, the loop and its other members go on. */
    private void dispatch(SelectionKey key) {
        Member member = (Member) key.attachment();
        try {
            member.onReady(key);
        } catch (RuntimeException bug) {
            LOG.log(Level.ERROR, "Closing a connection after an unexpected failure", bug);
            member.close();
        }
    }

    private synchronized void runTasks() {
        Runnable task;
        while ((task = tasks.poll()) != null) {
            try {
                task.run();
            } catch (RuntimeException e) {
                LOG.log(Level.ERROR, "Selector loop task failed", e);
            }
        }
    }

    private void sweep(long now) {
        for (Member member : List.copyOf(members)) {
            member.checkTimeouts(now);
        }
    }
}
