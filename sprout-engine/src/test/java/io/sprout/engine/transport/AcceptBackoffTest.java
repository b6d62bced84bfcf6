package io.sprout.engine.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class AcceptBackoffTest {

    private static final IOException EMFILE = new IOException("Too many open files");

    @Test
    void doublesFromFiftyMillisecondsUpToOnePointSixSeconds() {
        AcceptBackoff backoff = new AcceptBackoff();
        List<Long> delays = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            delays.add(backoff.failed(EMFILE));
        }
        assertThat(delays).containsExactly(50L, 100L, 200L, 400L, 800L, 1600L, 1600L, 1600L);
    }

    @Test
    void startsOverAfterASuccess() {
        AcceptBackoff backoff = new AcceptBackoff();
        backoff.failed(EMFILE);
        backoff.failed(EMFILE);
        backoff.succeeded();
        assertThat(backoff.failed(EMFILE)).isEqualTo(50);
    }
}
