package io.sprout.engine.hybrid;

import java.util.Set;

/**
 * Blocking socket writes have no timeout, so a platform thread checks twice a second for writes blocked past the
 * write timeout and closes those connections, which unblocks their workers.
 */
final class WriteWatchdog implements Runnable {

    private static final long PERIOD_MILLIS = 500;

    private final Set<HybridConnection> connections;
    private volatile Thread thread;

    WriteWatchdog(Set<HybridConnection> connections) {
        this.connections = connections;
    }

    void start(String name) {
        Thread started = new Thread(this, name);
        started.setDaemon(true);
        thread = started;
        started.start();
    }

    void stop() {
        Thread running = thread;
        thread = null;
        if (running != null) {
            running.interrupt();
        }
    }

    @Override
    public void run() {
        while (thread == Thread.currentThread()) {
            long now = System.nanoTime();
            for (HybridConnection connection : connections) {
                if (connection.writeOverdue(now)) {
                    connection.writeTimedOut();
                }
            }
            try {
                Thread.sleep(PERIOD_MILLIS);
            } catch (InterruptedException stopping) {
                return;
            }
        }
    }
}
