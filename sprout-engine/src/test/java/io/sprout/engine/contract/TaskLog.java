package io.sprout.engine.contract;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Which threads ran an exchange's tasks and callbacks, in which order, and whether two of them ever ran at once.
 * Each logged task spins for a moment so that an overlap, if the engine allowed one, would be seen.
 */
final class TaskLog {

    /** One run of a logged task. */
    record Entry(String label, String thread, boolean virtual) {

        /**
         * A worker: a pooled platform worker ({@code sprout-<port>-worker-N}) or a virtual thread; not an event
         * loop ({@code sprout-<port>-nio-N}), the timer ({@code sprout-<port>-timer}) or a test thread that asked
         * for the task.
         */
        boolean onWorker() {
            return virtual || thread.matches("sprout-\\d+-worker-\\d+");
        }
    }

    private static final long OVERLAP_WINDOW_NANOS = 50_000;

    private final List<Entry> entries = Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicInteger mostAtOnce = new AtomicInteger();

    /** {@code task}, logging each run under {@code label}. */
    Runnable logged(String label, Runnable task) {
        return () -> {
            enter(label);
            try {
                task.run();
            } finally {
                running.decrementAndGet();
            }
        };
    }

    List<Entry> entries() {
        synchronized (entries) {
            return new ArrayList<>(entries);
        }
    }

    List<String> labels() {
        return entries().stream().map(Entry::label).toList();
    }

    /** The most logged tasks that were running at the same moment. */
    int mostAtOnce() {
        return mostAtOnce.get();
    }

    private void enter(String label) {
        int now = running.incrementAndGet();
        mostAtOnce.accumulateAndGet(now, Math::max);
        Thread thread = Thread.currentThread();
        entries.add(new Entry(label, thread.getName(), thread.isVirtual()));
        long until = System.nanoTime() + OVERLAP_WINDOW_NANOS;
        while (System.nanoTime() - until < 0) {
            Thread.onSpinWait();
        }
    }
}
