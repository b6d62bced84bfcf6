package io.sprout.engine.exchange;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Which requests schedule a run: the scheduler's queue shows what is pending. */
class EarliestRunTest {

    private static final long MINUTE = TimeUnit.MINUTES.toNanos(1);

    private final ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1);

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    @Test
    void dropsARequestForLaterThanThePendingRun() {
        EarliestRun run = new EarliestRun(scheduler, () -> { });

        run.within(MINUTE);
        run.within(2 * MINUTE);

        assertThat(scheduler.getQueue()).hasSize(1);
    }

    @Test
    void schedulesARequestForSoonerThanThePendingRun() {
        EarliestRun run = new EarliestRun(scheduler, () -> { });

        run.within(2 * MINUTE);
        run.within(MINUTE);

        assertThat(scheduler.getQueue()).hasSize(2);
    }

    @Test
    void schedulesAgainOnceThePendingRunHasRun() throws InterruptedException {
        CountDownLatch ran = new CountDownLatch(1);
        EarliestRun run = new EarliestRun(scheduler, ran::countDown);

        run.within(0);
        assertThat(ran.await(30, TimeUnit.SECONDS)).isTrue();
        run.within(MINUTE);

        assertThat(scheduler.getQueue()).hasSize(1);
    }

    @Test
    void asksNothingOfAStoppedScheduler() {
        EarliestRun run = new EarliestRun(scheduler, () -> { });
        scheduler.shutdownNow();

        run.within(MINUTE);

        assertThat(scheduler.getQueue()).isEmpty();
    }
}
