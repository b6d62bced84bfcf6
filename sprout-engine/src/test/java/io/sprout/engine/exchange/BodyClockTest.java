package io.sprout.engine.exchange;

import io.sprout.engine.MinDataRates;
import io.sprout.engine.TimeoutKind;
import io.sprout.engine.Timeouts;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** The body limits as a function of given instants and waits: no clock is read. */
class BodyClockTest {

    private static final long S = 1_000_000_000L;

    @Test
    void theRateRuleShortensTheWaitOnceTheGracePeriodIsSpent() {
        BodyClock clock = new BodyClock(Timeouts.DEFAULT, MinDataRates.DEFAULT);

        assertThat(clock.allowedWait(0)).isEqualTo(5 * S);
        assertThat(clock.limit()).isEqualTo(TimeoutKind.RATE);
        clock.waited(4 * S, 240);
        assertThat(clock.allowedWait(10 * S)).as("a second of grace left").isEqualTo(S);
        clock.waited(S, 2400);
        assertThat(clock.allowedWait(20 * S)).as("2640 bytes earn 11 s, 5 s of them spent").isEqualTo(6 * S);
    }

    @Test
    void timeTheHandlerSpendsBetweenReadsDoesNotCount() {
        BodyClock clock = new BodyClock(Timeouts.DEFAULT, MinDataRates.DEFAULT);
        clock.allowedWait(0);
        clock.waited(S, 0);

        assertThat(clock.allowedWait(1000 * S)).isEqualTo(4 * S);
    }

    @Test
    void theReadTimeoutLimitsWhenItIsShorter() {
        BodyClock clock = new BodyClock(Timeouts.DEFAULT.withBodyRead(Duration.ofSeconds(2)), MinDataRates.DEFAULT);

        assertThat(clock.allowedWait(0)).isEqualTo(2 * S);
        assertThat(clock.limit()).isEqualTo(TimeoutKind.BODY);
    }

    @Test
    void theWholeBodyDeadlineRunsFromTheFirstWait() {
        BodyClock clock = new BodyClock(Timeouts.DEFAULT.withRequestBody(Duration.ofSeconds(3)), MinDataRates.NONE);

        assertThat(clock.allowedWait(10 * S)).isEqualTo(3 * S);
        clock.waited(S, 100);
        assertThat(clock.allowedWait(12 * S)).isEqualTo(S);
        assertThat(clock.limit()).isEqualTo(TimeoutKind.BODY);
        assertThat(clock.allowedWait(14 * S)).isNegative();
    }

    @Test
    void aBodyMayBeShedOnceBelowTheRateWithoutGraceAfterATenthOfASecondOfWaiting() {
        BodyClock clock = new BodyClock(Timeouts.DEFAULT, MinDataRates.DEFAULT);

        assertThat(clock.sheddableFrom(10 * S)).as("judged on 100 ms of waiting at least").isEqualTo(10 * S + S / 10);
        clock.waited(3 * S, 240);
        assertThat(clock.sheddableFrom(20 * S)).as("240 bytes earned one second, three were spent")
                .isEqualTo(18 * S);
        clock.waited(S, 2400);
        assertThat(clock.sheddableFrom(30 * S)).as("2640 bytes earn 11 s, 4 s spent").isEqualTo(37 * S);
    }

    @Test
    void withoutARateRuleABodyIsNeverSheddable() {
        BodyClock clock = new BodyClock(Timeouts.DEFAULT, MinDataRates.NONE);

        assertThat(clock.sheddableFrom(0)).isGreaterThan(1_000_000 * S);
    }
}
