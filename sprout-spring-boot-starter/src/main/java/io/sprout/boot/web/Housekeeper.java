package io.sprout.boot.web;


import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A non-daemon thread alive exactly while the server runs. Engine workers may be virtual (daemon) threads, so
 * without it a {@code main} that returns after starting the server would end the JVM. It also runs the
 * application's chores every interval (a servlet application evicts expired sessions, so sessions nobody asks for
 * again are still destroyed and their listeners told).
 */
final class Housekeeper {

    private final CountDownLatch stopped = new CountDownLatch(1);
    private final Thread thread;

    private Housekeeper(Runnable chores, Duration interval, int port) {
        this.thread = Thread.ofPlatform().daemon(false).name("sprout-" + port + "-housekeeper").unstarted(() -> {
            try {
                while (!stopped.await(interval.toMillis(), TimeUnit.MILLISECONDS)) {
                    chores.run();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    static Housekeeper start(Runnable chores, Duration interval, int port) {
        Housekeeper housekeeper = new Housekeeper(chores, interval, port);
        housekeeper.thread.start();
        return housekeeper;
    }

    void stop() {
        stopped.countDown();
    }

    boolean alive() {
        return thread.isAlive();
    }
}
