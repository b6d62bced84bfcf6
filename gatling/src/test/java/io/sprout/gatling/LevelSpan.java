package io.sprout.gatling;

import java.util.concurrent.atomic.LongAccumulator;

import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;

/**
 * The wall-clock span of one closed-model level, from its first client's start to its last client's finish. Gatling's
 * own per-request throughput divides by the whole run, warm-up and other levels included, so a multi-level
 * simulation prints each level's span and the runner divides the level's request count by it.
 */
final class LevelSpan {

    private final LongAccumulator first = new LongAccumulator(Math::min, Long.MAX_VALUE);

    private final LongAccumulator last = new LongAccumulator(Math::max, Long.MIN_VALUE);

    /** {@code scenario}, then {@code body} timed by {@code span}, or untimed when there is none (a warm-up). */
    static ScenarioBuilder timed(ScenarioBuilder scenario, ChainBuilder body, LevelSpan span) {
        return (span == null) ? scenario.exec(body)
                : scenario.exec(span::started).exec(body).exec(span::finished);
    }

    /** A session function: records a client's start. */
    <T> T started(T session) {
        this.first.accumulate(System.currentTimeMillis());
        return session;
    }

    /** A session function: records a client's finish. */
    <T> T finished(T session) {
        this.last.accumulate(System.currentTimeMillis());
        return session;
    }

    boolean hasRun() {
        return this.last.get() >= this.first.get();
    }

    long millis() {
        return this.last.get() - this.first.get();
    }

}
