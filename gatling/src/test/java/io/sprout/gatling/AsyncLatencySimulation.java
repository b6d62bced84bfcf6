package io.sprout.gatling;

import java.time.Duration;
import java.util.Collections;
import java.util.List;

import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.Simulation;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.during;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

/**
 * The asynchronous counterpart of {@link ConcurrencySimulation}: a closed model of {@code C} concurrent clients,
 * each on its own keep-alive connection, sending requests back to back to {@code /benchmark/latency-async?ms=100}
 * for a fixed time, for each level {@code C} in turn. The endpoint waits without holding a thread, so a server
 * that releases its worker (servlet async, or a reactive return type) is not capped by its pool: by Little's law an
 * ideal server answers {@code C / 0.1 s} requests per second with a mean near 100 ms, as far as its CPU (and the
 * load generator's) allows.
 * <p>
 * As in {@code ConcurrencySimulation}, all levels run in one Gatling JVM after an unmeasured warm-up level, each
 * level's requests carry their own name ({@code latency-async ms=100 c=500}) so the report has one row per level,
 * and each level's wall-clock span is printed as {@code async-level clients=500 millis=20104} for the runner to
 * compute its throughput. A level is bounded by time rather than by a request count, since its throughput is
 * what is measured.
 * <p>
 * System properties: {@code levels} (default {@code 500,1000,2000}), {@code levelSeconds} (default 20),
 * {@code ms} (default 100), {@code warmUpClients} (default: the largest level) and {@code warmUpSeconds} (default
 * 30, 0 skips the warm-up). Both durations are multiplied by {@code scale}. Each level asserts more than 99 %
 * successful requests.
 */
// Gatling simulations call setUp() from their initializer by design.
@SuppressWarnings("this-escape")
public class AsyncLatencySimulation extends Simulation {

    private final LoadSettings settings = LoadSettings.fromSystemProperties();

    private final LevelRun run = new LevelRun();

    private final List<Integer> levels = LoadSettings.intListProperty("levels", "500,1000,2000");

    private final int millis = LoadSettings.intProperty("ms", 100);

    {
        Duration total = Duration.ZERO;
        int warmUpSeconds = LoadSettings.intProperty("warmUpSeconds", 30);
        if (warmUpSeconds > 0) {
            Duration warmUp = this.settings.seconds(warmUpSeconds);
            int warmUpClients = LoadSettings.intProperty("warmUpClients", Collections.max(this.levels));
            this.run.warmUp(level("warm-up", warmUpClients, warmUp, null));
            total = total.plus(warmUp);
        }
        Duration levelDuration = this.settings.seconds(LoadSettings.intProperty("levelSeconds", 20));
        for (int clients : this.levels) {
            String name = "latency-async ms=" + this.millis + " c=" + clients;
            this.run.level(clients, name, (span) -> level(name, clients, levelDuration, span));
            total = total.plus(levelDuration);
        }
        // Each phase ends at most one request timeout (30 s, gatling.conf) after its duration.
        setUp(this.run.chain()).protocols(this.settings.perUserConnections())
            .maxDuration(total.plusSeconds(30L * this.run.phaseCount() + 30))
            .assertions(this.run.assertions());
    }

    @Override
    public void after() {
        this.run.printSpans((clients, millis) -> "async-level clients=%d millis=%d".formatted(clients, millis));
    }

    private PopulationBuilder level(String name, int clients, Duration duration, LevelSpan span) {
        var loop = during(duration).on(http(name)
            .get("/benchmark/latency-async?ms=" + this.millis)
            .check(status().is(200)));
        return LevelSpan.timed(scenario(name), loop, span).injectOpen(atOnceUsers(clients));
    }

}
