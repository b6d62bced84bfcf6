package io.sprout.engine.exchange;

import io.sprout.engine.MinDataRates;
import io.sprout.engine.TimeoutKind;
import io.sprout.engine.Timeouts;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** The head limits as a function of given instants: no clock is read, so nothing here depends on timing. */
class HeadClockTest {

    private static final long S = 1_000_000_000L;
    private static final long T0 = Long.MAX_VALUE - 3 * S; // near the wrap: comparisons must go by difference

    private final HeadClock clock = new HeadClock(Timeouts.DEFAULT.withRequestHead(Duration.ofSeconds(10))
            .withIdle(Duration.ofSeconds(30)), MinDataRates.DEFAULT);

    @Test
    void countsTheFirstHeadFromTheAccept() {
        clock.accepted(T0);

        assertThat(clock.expired(T0 + 9 * S)).isNull();
        assertThat(clock.begun()).isFalse();
        assertThat(clock.expired(T0 + 11 * S)).isEqualTo(TimeoutKind.HEAD);
        assertThat(clock.expiresAt()).isEqualTo(T0 + 10 * S);
    }

    @Test
    void aKeptAliveConnectionIsIdleUntilTheFirstByteStartsItsDeadline() {
        clock.idle(T0);
        assertThat(clock.expired(T0 + 29 * S)).isNull();
        assertThat(clock.expired(T0 + 31 * S)).isEqualTo(TimeoutKind.IDLE);

        clock.received(T0 + 20 * S, 3000); // 12.5 s at 240 B/s: only the deadline can end it
        assertThat(clock.idle()).isFalse();
        assertThat(clock.expired(T0 + 29 * S)).isNull();
        assertThat(clock.expired(T0 + 31 * S)).isEqualTo(TimeoutKind.HEAD);
    }

    @Test
    void countsTheTimeIdleOnlyUntilTheNextHeadBegins() {
        clock.accepted(T0);
        assertThat(clock.idleNanos(T0 + S)).as("a first head is due, not idle").isZero();

        clock.idle(T0);
        assertThat(clock.idleNanos(T0 + 2 * S)).isEqualTo(2 * S);

        clock.received(T0 + 2 * S, 1);
        assertThat(clock.idleNanos(T0 + 3 * S)).isZero();
    }

    @Test
    void aHeadBelowTheMinimumRateExpiresAfterTheGracePeriod() {
        clock.accepted(T0);
        clock.received(T0 + S, 10);

        assertThat(clock.expired(T0 + 5 * S)).as("within the grace period").isNull();
        assertThat(clock.expiresAt()).isEqualTo(T0 + 6 * S);
        assertThat(clock.expired(T0 + 6 * S + 1)).isEqualTo(TimeoutKind.RATE);
    }

    @Test
    void bytesEarnTimeAtTheMinimumRate() {
        clock.accepted(T0);
        clock.received(T0, 1680); // seven seconds' worth at 240 B/s

        assertThat(clock.expired(T0 + 6 * S)).isNull();
        assertThat(clock.expiresAt()).isEqualTo(T0 + 7 * S);
        assertThat(clock.expired(T0 + 7 * S + 1)).isEqualTo(TimeoutKind.RATE);
    }

    @Test
    void aRateOfZeroLeavesOnlyTheDeadline() {
        HeadClock noRate = new HeadClock(Timeouts.DEFAULT, MinDataRates.NONE);
        noRate.accepted(T0);
        noRate.received(T0, 1);

        assertThat(noRate.expired(T0 + 9 * S)).isNull();
        assertThat(noRate.expiresAt()).isEqualTo(T0 + 10 * S);
    }

    @Test
    void pipelinedBytesStartTheNextHeadsDeadlineAtOnce() {
        clock.headBegun(T0);

        assertThat(clock.idle()).isFalse();
        assertThat(clock.begun()).isTrue();
        assertThat(clock.expired(T0 + 11 * S)).isEqualTo(TimeoutKind.HEAD);
    }
}
