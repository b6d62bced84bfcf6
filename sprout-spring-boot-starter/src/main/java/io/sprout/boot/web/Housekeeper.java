package io.sprout.boot.web;

import io.sprout.boot.servlet.session.SessionStore;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A non-daemon thread alive exactly while the server runs. Engine workers may be virtual (daemon) threads, so
 * without it a {@code main} that returns after starting the server would end the JVM. It also evicts expired
 * sessions every interval, so sessions nobody asks for again are still destroyed and their listeners told.
 */
final class Housekeeper {

    private final CountDownLatch stopped = new CountDownLatch(1);
    private final Thread thread;

    private Housekeeper(SessionStore sessions, Duration interval, int port) {
        this.thread = Thread.ofPlatform().daemon(false).name("sprout-" + port + "-housekeeper").unstarted(() -> {
            try {
                while (!stopped.await(interval.toMillis(), TimeUnit.MILLISECONDS)) {
                    sessions.evictExpired();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    static Housekeeper start(SessionStore sessions, Duration interval, int port) {
        Housekeeper housekeeper = new Housekeeper(sessions, interval, port);
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
