package io.sprout.gatling;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;

import io.gatling.javaapi.core.Assertion;
import io.gatling.javaapi.core.PopulationBuilder;

import static io.gatling.javaapi.core.CoreDsl.details;

/**
 * The levels of a multi-level simulation, run one after another in one Gatling JVM after an optional unmeasured
 * warm-up: chains their phases, gives each measured level its {@link LevelSpan} and the assertion that more than
 * 99 % of its requests succeed, and prints the spans the runner turns into throughputs.
 */
final class LevelRun {

    private final List<PopulationBuilder> phases = new ArrayList<>();

    private final List<Assertion> assertions = new ArrayList<>();

    /** Per level (client count), in the order the levels run. */
    private final Map<Integer, LevelSpan> spans = new LinkedHashMap<>();

    /** Adds an unmeasured phase. */
    void warmUp(PopulationBuilder phase) {
        this.phases.add(phase);
    }

    /** Adds the measured level of {@code clients}, whose requests are named {@code requestName}, timed by its span. */
    void level(int clients, String requestName, Function<LevelSpan, PopulationBuilder> phase) {
        LevelSpan span = new LevelSpan();
        this.spans.put(clients, span);
        this.phases.add(phase.apply(span));
        this.assertions.add(details(requestName).successfulRequests().percent().gt(99.0));
    }

    int phaseCount() {
        return this.phases.size();
    }

    /** Every phase, one after the other. */
    PopulationBuilder chain() {
        PopulationBuilder chain = this.phases.get(this.phases.size() - 1);
        for (int i = this.phases.size() - 2; i >= 0; i--) {
            chain = this.phases.get(i).andThen(chain);
        }
        return chain;
    }

    List<Assertion> assertions() {
        return List.copyOf(this.assertions);
    }

    /** Prints one line per level that ran, made by {@code line} from its client count and its span in milliseconds. */
    void printSpans(BiFunction<Integer, Long, String> line) {
        this.spans.forEach((clients, span) -> {
            if (span.hasRun()) {
                System.out.println(line.apply(clients, span.millis()));
            }
        });
    }

}
