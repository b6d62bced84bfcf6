package io.sprout.boot.web;

import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * Sends a {@link WarmUp}'s requests to a port on the loopback address and waits for them, never past its time limit.
 * A request that fails (an error status, a broken connection) is counted and the warm-up goes on: warming up is an
 * optimisation, and a path that fails here fails for clients too, where the application will hear of it.
 * <p>
 * With {@link WarmUp#untilCompiled()} the clients go on after the requests until the JIT compiled for less than
 * {@link #SETTLED_SHARE} of the last {@code window}, read from the JVM's total compilation time. Until then they send
 * only in the first {@link WarmUp#loadShare()} of every {@link #PACE_PERIOD}: the compiler threads share the CPUs
 * with the requests, and the hot code they compile is what the warm-up waits for.
 */
final class WarmUpDriver {

    /** The JIT has settled when it compiles less than this share of the time: the hot paths are compiled. */
    static final double SETTLED_SHARE = 0.1;

    /**
     * The clients' rhythm while the JIT compiles: fifty periods to a JIT window, each long enough that waking up
     * from a rest (tens of microseconds) costs little.
     */
    static final Duration PACE_PERIOD = Duration.ofMillis(20);

    /** How often the JIT's compilation time is read. */
    static final Duration JIT_WINDOW = Duration.ofSeconds(1);

    private final WarmUp warmUp;
    private final Duration window;
    /** Milliseconds the JIT has spent compiling so far, or {@code null} when the JVM does not say. */
    private final LongSupplier compilingMillis;

    WarmUpDriver(WarmUp warmUp) {
        this(warmUp, JIT_WINDOW, jvmCompilingMillis());
    }

    WarmUpDriver(WarmUp warmUp, Duration window, LongSupplier compilingMillis) {
        this.warmUp = warmUp;
        this.window = window;
        this.compilingMillis = compilingMillis;
    }

    private static LongSupplier jvmCompilingMillis() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit::getTotalCompilationTime : null;
    }

    WarmUp.Result run(int port) {
        long start = System.nanoTime();
        long deadline = start + warmUp.timeout().toNanos();
        boolean waitForJit = warmUp.untilCompiled() && compilingMillis != null;
        AtomicBoolean jitSettled = new AtomicBoolean(!waitForJit);
        AtomicInteger next = new AtomicInteger();
        AtomicInteger answered = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        AtomicReference<String> firstFailure = new AtomicReference<>();
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", port);
        List<Thread> clients = new ArrayList<>();
        for (int i = 0; i < warmUp.concurrency(); i++) {
            clients.add(Thread.ofPlatform().daemon().name("sprout-warm-up-", i).start(() -> {
                try (WarmUpConnection connection = new WarmUpConnection(address)) {
                    for (int n = next.getAndIncrement(); n < warmUp.requests() || !jitSettled.get();
                            n = next.getAndIncrement()) {
                        if (System.nanoTime() - deadline >= 0) {
                            return;
                        }
                        restWhileCompiling(start, jitSettled);
                        String path = warmUp.paths().get(n % warmUp.paths().size());
                        String failure;
                        try {
                            failure = send(connection, path, headersOf(n), deadline);
                        } catch (WarmUpConnection.TimeLimitReached cutShort) {
                            // Reported as the time limit, not as a failed request.
                            return;
                        }
                        if (failure == null) {
                            answered.incrementAndGet();
                        } else {
                            failed.incrementAndGet();
                            firstFailure.compareAndSet(null, failure);
                        }
                    }
                }
            }));
        }
        awaitClients(clients, deadline, () -> next.get() >= warmUp.requests(), jitSettled);
        int done = answered.get() + failed.get();
        return new WarmUp.Result(answered.get(), failed.get(), done < warmUp.requests() || !jitSettled.get(),
                Duration.ofNanos(System.nanoTime() - start), firstFailure.get(), jitState(jitSettled.get()));
    }

    /**
     * Waits for the clients until the deadline. While the JIT has not settled, reads its compilation time every
     * window, and marks it settled after a window it was (nearly) idle in once every request has been sent.
     */
    private void awaitClients(List<Thread> clients, long deadline, BooleanSupplier requestsSent,
            AtomicBoolean jitSettled) {
        long compiledBefore = jitSettled.get() ? 0 : compilingMillis.getAsLong();
        long windowStart = System.nanoTime();
        try {
            for (Thread client : clients) {
                while (client.isAlive()) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        return;
                    }
                    client.join(Duration.ofNanos(Math.min(left, window.toNanos())));
                    long now = System.nanoTime();
                    if (!jitSettled.get() && now - windowStart >= window.toNanos()) {
                        long compiled = compilingMillis.getAsLong();
                        double share = (compiled - compiledBefore) * 1_000_000.0 / (now - windowStart);
                        boolean quiet = share < SETTLED_SHARE;
                        jitSettled.set(quiet && requestsSent.getAsBoolean());
                        compiledBefore = compiled;
                        windowStart = now;
                    }
                }
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Request {@code n}'s headers: each path with each variant in turn, not (with two paths) one variant per path. */
    private String headersOf(int n) {
        List<String> variants = WarmUpConnection.HEADER_VARIANTS;
        return variants.get(n / warmUp.paths().size() % variants.size());
    }

    /**
     * While the JIT compiles, waits out the rest of the period once its sending share has passed. All clients share
     * the rhythm, so they rest together and the compiler has the CPUs to itself meanwhile.
     */
    private void restWhileCompiling(long start, AtomicBoolean jitSettled) {
        if (jitSettled.get()) {
            return;
        }
        long rest = restNanos(System.nanoTime() - start, warmUp.loadShare());
        if (rest > 0) {
            LockSupport.parkNanos(rest);
        }
    }

    /**
     * How long a client rests {@code sinceStart} nanoseconds into the warm-up while the JIT compiles: not at all in
     * the first {@code loadShare} of a {@link #PACE_PERIOD}, else until the next period begins.
     */
    static long restNanos(long sinceStart, double loadShare) {
        long period = PACE_PERIOD.toNanos();
        long intoPeriod = sinceStart % period;
        return intoPeriod < loadShare * period ? 0 : period - intoPeriod;
    }

    private WarmUp.Jit jitState(boolean settled) {
        if (!warmUp.untilCompiled()) {
            return WarmUp.Jit.NOT_ASKED;
        }
        if (compilingMillis == null) {
            return WarmUp.Jit.UNKNOWN;
        }
        return settled ? WarmUp.Jit.SETTLED : WarmUp.Jit.STILL_COMPILING;
    }

    /** @return {@code null} when answered with a 1xx-3xx status, else what went wrong */
    private static String send(WarmUpConnection connection, String path, String headers, long deadline)
            throws WarmUpConnection.TimeLimitReached {
        try {
            int status = connection.get(path, headers, deadline);
            return status < 400 ? null : "GET " + path + ": " + status;
        } catch (WarmUpConnection.TimeLimitReached cutShort) {
            throw cutShort;
        } catch (IOException e) {
            connection.close();
            return "GET " + path + ": " + e;
        }
    }
}
