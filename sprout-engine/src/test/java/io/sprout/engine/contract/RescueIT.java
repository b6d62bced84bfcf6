package io.sprout.engine.contract;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A task of a suspended exchange that a saturated platform pool refuses still runs: on one of the server's few
 * named rescue threads, not on a thread started for it, and the server counts it. (Virtual workers never refuse
 * while the server runs.)
 */
@ParameterizedClass(name = "{0}")
@EnumSource(value = Combination.class, names = {"NIO_PLATFORM", "HYBRID_PLATFORM"})
class RescueIT {

    private static final String SUSPEND = "GET /suspend HTTP/1.1\r\nHost: test\r\n\r\n";

    @Parameter
    Combination combination;

    private final BlockingQueue<Suspended> suspended = new LinkedBlockingQueue<>();

    @Test
    void runsATaskTheSaturatedPoolRefusesOnANamedRescueThreadAndCountsIt() throws InterruptedException {
        try (RunningServer server = RunningServer.start(combination,
                (request, response) -> suspended.add(Suspended.start(request, response)),
                config -> config.threadPoolSize(1).workerQueueCapacity(1));
                RawClient blocked = server.connect();
                RawClient queued = server.connect();
                RawClient rescued = server.connect()) {
            Suspended blocker = suspendOne(blocked);
            Suspended filler = suspendOne(queued);
            Suspended refused = suspendOne(rescued);

            // The one worker runs a task that waits, and the one queue slot holds the next.
            CountDownLatch workerTaken = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            blocker.async.execute(() -> {
                workerTaken.countDown();
                Await.latch(release, "the test releases the worker");
                blocker.answer("blocker");
            });
            Await.latch(workerTaken, "the worker runs the blocking task");
            CompletableFuture<String> fillerThread = new CompletableFuture<>();
            filler.async.execute(() -> {
                fillerThread.complete(Thread.currentThread().getName());
                filler.answer("filler");
            });

            CompletableFuture<String> rescueThread = new CompletableFuture<>();
            refused.async.execute(() -> {
                rescueThread.complete(Thread.currentThread().getName());
                refused.answer("rescued");
            });

            String prefix = "sprout-" + server.port() + "-";
            assertThat(Await.future(rescueThread, "the refused task runs")).matches(prefix + "rescue-\\d+");
            assertThat(text(rescued.read())).isEqualTo("rescued");
            assertThat(server.stats().tasksRescued()).isEqualTo(1);
            assertThat(server.stats().exchangesRefused()).isZero();

            release.countDown();
            assertThat(text(blocked.read())).isEqualTo("blocker");
            assertThat(text(queued.read())).isEqualTo("filler");
            assertThat(fillerThread.join()).matches(prefix + "worker-1");
        }
    }

    private Suspended suspendOne(RawClient client) throws InterruptedException {
        client.send(SUSPEND);
        Suspended exchange = suspended.poll(Await.LIMIT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        assertThat(exchange).as("the exchange was suspended").isNotNull();
        return exchange;
    }

    private static String text(RawClient.Response response) {
        return new String(response.body(), StandardCharsets.UTF_8);
    }
}
