package io.sprout.boot.web;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How long a warm-up goes on: its requests, then (when asked) until the JIT settles, never past its time limit. The
 * JIT's compilation time is scripted, so the outcome does not depend on what this JVM's compiler is doing.
 */
class WarmUpDriverTest {

    /** A limit no passing test comes near. */
    private static final Duration GENEROUS = Duration.ofSeconds(30);
    /** A limit a test reaches on purpose. */
    private static final Duration SHORT = Duration.ofMillis(400);
    /** Short windows, so a test sees several. */
    private static final Duration WINDOW = Duration.ofMillis(20);

    private final AtomicInteger served = new AtomicInteger();
    /** Each request's path and Accept header ("-" without one), in order. */
    private final List<String> heads = new CopyOnWriteArrayList<>();
    private HttpServer server;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        server.createContext("/", exchange -> {
            served.incrementAndGet();
            String accept = exchange.getRequestHeaders().getFirst("Accept");
            heads.add(exchange.getRequestURI().getPath() + " " + (accept == null ? "-" : accept));
            byte[] body = "ok".getBytes();
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private WarmUp.Result run(WarmUp warmUp, LongSupplier compilingMillis) {
        return new WarmUpDriver(warmUp, WINDOW, compilingMillis).run(server.getAddress().getPort());
    }

    /** Compiling all the time (a second per window) for {@code busyReads} reads, then idle. */
    private static LongSupplier compilingFor(int busyReads) {
        AtomicInteger reads = new AtomicInteger();
        return () -> Math.min(reads.getAndIncrement(), busyReads) * 1000L;
    }

    @Test
    void sendsItsRequestsAndStopsWhenNotAskedToWaitForTheJit() {
        WarmUp.Result result = run(new WarmUp(List.of("/a", "/b"), 50, 4, GENEROUS, false, 1), compilingFor(1000));

        assertThat(result.answered()).isEqualTo(50);
        assertThat(served).hasValue(50);
        assertThat(result.jit()).isEqualTo(WarmUp.Jit.NOT_ASKED);
        assertThat(result.timedOut()).isFalse();
        assertThat(result.toString()).startsWith("50 requests answered in ");
    }

    @Test
    void sendsEachPathBareAndWithAcceptInTurn() {
        run(new WarmUp(List.of("/a", "/b"), 8, 1, GENEROUS, false, 1), compilingFor(0));

        assertThat(heads).containsExactly("/a -", "/b -", "/a */*", "/b */*", "/a -", "/b -", "/a */*", "/b */*");
    }

    @Test
    void goesOnUntilAWindowWithoutCompilation() {
        WarmUp.Result result = run(new WarmUp(List.of("/"), 10, 2, GENEROUS, true, 1), compilingFor(8));

        assertThat(result.jit()).isEqualTo(WarmUp.Jit.SETTLED);
        assertThat(result.timedOut()).isFalse();
        assertThat(result.answered()).as("requests beyond the 10 asked for").isGreaterThan(10);
        assertThat(result.failed()).isZero();
        assertThat(result.toString()).contains(" requests answered, until the JIT settled in ");
    }

    @Test
    void stopsAtItsTimeLimitWhileTheJitStillCompiles() {
        WarmUp.Result result = run(new WarmUp(List.of("/"), 10, 2, SHORT, true, 1), compilingFor(Integer.MAX_VALUE));

        assertThat(result.jit()).isEqualTo(WarmUp.Jit.STILL_COMPILING);
        assertThat(result.timedOut()).isTrue();
        assertThat(result.toString()).contains(", the JIT still compiling, stopped at the time limit in ");
    }

    @Test
    void stopsAfterItsRequestsWhenTheJvmDoesNotReportCompilationTime() {
        WarmUp.Result result = run(new WarmUp(List.of("/"), 20, 3, GENEROUS, true, 1), null);

        assertThat(result.answered()).isEqualTo(20);
        assertThat(result.jit()).isEqualTo(WarmUp.Jit.UNKNOWN);
        assertThat(result.timedOut()).isFalse();
        assertThat(result.toString()).contains("this JVM does not report compilation time");
    }

    @Test
    void whileTheJitCompilesTheClientsSendOnlyInTheirShareOfEachPeriod() {
        long ms = 1_000_000;
        // A 20 ms period with a share of 0.1: 2 ms of sending, then rest until the next period.
        assertThat(WarmUpDriver.restNanos(0, 0.1)).isZero();
        assertThat(WarmUpDriver.restNanos(ms, 0.1)).isZero();
        assertThat(WarmUpDriver.restNanos(3 * ms, 0.1)).isEqualTo(17 * ms);
        assertThat(WarmUpDriver.restNanos(15 * ms, 0.1)).isEqualTo(5 * ms);
        assertThat(WarmUpDriver.restNanos(41 * ms, 0.1)).as("the third period's sending share").isZero();
        assertThat(WarmUpDriver.restNanos(43 * ms, 0.5)).as("half of the period").isZero();
        assertThat(WarmUpDriver.restNanos(51 * ms, 0.5)).isEqualTo(9 * ms);
    }

    @Test
    void aFullLoadShareNeverRests() {
        for (long at = 0; at < 3 * WarmUpDriver.PACE_PERIOD.toNanos(); at += 250_000) {
            assertThat(WarmUpDriver.restNanos(at, 1)).as("rest at %d ns", at).isZero();
        }
    }
}
