package io.sprout.engine.contract;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

/**
 * Waiting in tests without guessing durations: every wait ends as soon as its condition holds, and the generous
 * limit only turns a hang into a failure that names what never happened.
 */
public final class Await {

    public static final Duration LIMIT = Duration.ofSeconds(30);

    private Await() {
    }

    public static void latch(CountDownLatch latch, String what) {
        try {
            if (!latch.await(LIMIT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("Timed out waiting until " + what);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("Interrupted waiting until " + what, e);
        }
    }

    static <T> T future(CompletableFuture<T> future, String what) {
        try {
            return future.get(LIMIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("Timed out waiting until " + what, e);
        } catch (ExecutionException e) {
            throw new AssertionError(what + " failed", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("Interrupted waiting until " + what, e);
        }
    }

    /** Polls {@code condition} until it holds. */
    public static void until(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("Timed out waiting until " + what);
            }
            RunningServer.sleep(5);
        }
    }

    /**
     * Watches {@code condition} for {@code period} and fails as soon as it stops holding: for what must not happen,
     * such as a server reading while it should not. The period is only how long an eager server is given to show
     * itself; a correct one passes however long it is.
     */
    static void holdsFor(Duration period, BooleanSupplier condition, String what) {
        long end = System.nanoTime() + period.toNanos();
        do {
            if (!condition.getAsBoolean()) {
                throw new AssertionError("Expected, but no longer true: " + what);
            }
            RunningServer.sleep(5);
        } while (System.nanoTime() - end < 0);
    }
}
