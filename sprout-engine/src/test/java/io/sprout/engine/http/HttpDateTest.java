package io.sprout.engine.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class HttpDateTest {

    /** A clock the test moves by hand. */
    private static final class ManualClock extends Clock {

        private long millis;

        ManualClock(long millis) {
            this.millis = millis;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis);
        }

        @Override
        public long millis() {
            return millis;
        }
    }

    @Test
    void formatsImfFixdateInGmt() {
        ManualClock clock = new ManualClock(Instant.parse("2026-11-22T07:05:09.250Z").toEpochMilli());

        assertThat(new HttpDate(clock).now()).isEqualTo("Sun, 22 Nov 2026 07:05:09 GMT");
    }

    @Test
    void padsTheDayOfMonthToTwoDigits() {
        ManualClock clock = new ManualClock(Instant.parse("1994-11-06T08:49:37Z").toEpochMilli());

        assertThat(new HttpDate(clock).now()).isEqualTo("Sun, 06 Nov 1994 08:49:37 GMT");
    }

    @Test
    void formatsOncePerSecond() {
        ManualClock clock = new ManualClock(Instant.parse("2026-11-22T07:05:09Z").toEpochMilli());
        HttpDate date = new HttpDate(clock);

        String first = date.now();
        clock.millis += 999;
        String sameSecond = date.now();
        clock.millis += 1;
        String nextSecond = date.now();

        assertThat(sameSecond).isSameAs(first);
        assertThat(nextSecond).isEqualTo("Sun, 22 Nov 2026 07:05:10 GMT");
    }
}
