package io.sprout.gatling;

import java.util.Collections;
import java.util.List;

import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.Simulation;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.repeat;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

/**
 * Seed 002's comparison: a closed model of {@code C} concurrent clients, each on its own keep-alive connection,
 * sending requests back to back to {@code /benchmark/latency?ms=100} until {@code requests} requests are done,
 * for each level {@code C} in turn. An ideal server keeps the mean near 100 ms at every level; a 200-thread pool
 * caps at 2,000 req/s (Little's law), so its mean grows with {@code C}.
 * <p>
 * All levels run in one Gatling JVM after an unmeasured warm-up level, because a level lasts only a few seconds:
 * run from a cold Gatling JVM, its first second measures the load generator's own JIT warm-up (on one pinned core
 * that doubled the mean at 500 clients). Each level's requests have their own name ({@code latency ms=100 c=500}),
 * so Gatling's report has one row per level; the runner reads those rows, and the wall-clock span of each level,
 * printed as {@code concurrency-level clients=500 requests=10000 millis=4321}, gives its throughput.
 * <p>
 * System properties: {@code levels} (default {@code 500,1000,2000}), {@code requests} per level (default 10,000,
 * multiplied by {@code scale}, at least one per client), {@code ms} (default 100), {@code warmUpClients} (default:
 * the largest level) and {@code warmUpRequests} (default 30,000, not scaled; 0 skips the warm-up). The warm-up is that
 * long because a server pinned to one core compiles on that core: it takes its JIT a good ten seconds of load.
 */
// Gatling simulations call setUp() from their initializer by design.
@SuppressWarnings("this-escape")
public class ConcurrencySimulation extends Simulation {

    private final LoadSettings settings = LoadSettings.fromSystemProperties();

    private final LevelRun run = new LevelRun();

    private final List<Integer> levels = LoadSettings.intListProperty("levels", "500,1000,2000");

    private final int requests = this.settings.scaledCount(LoadSettings.intProperty("requests", 10_000), 1);

    private final int millis = LoadSettings.intProperty("ms", 100);

    {
        int warmUpRequests = LoadSettings.intProperty("warmUpRequests", 30_000);
        if (warmUpRequests > 0) {
            int warmUpClients = LoadSettings.intProperty("warmUpClients", Collections.max(this.levels));
            this.run.warmUp(level("warm-up", warmUpClients, warmUpRequests, null));
        }
        for (int clients : this.levels) {
            String name = requestName(clients);
            this.run.level(clients, name, (span) -> level(name, clients, this.requests, span));
        }
        setUp(this.run.chain()).protocols(this.settings.perUserConnections())
            .maxDuration(this.settings.seconds(120 * this.run.phaseCount()).plusSeconds(60))
            .assertions(this.run.assertions());
    }

    @Override
    public void after() {
        this.run.printSpans((clients, millis) -> "concurrency-level clients=%d requests=%d millis=%d"
            .formatted(clients, this.requests, millis));
    }

    private String requestName(int clients) {
        return "latency ms=" + this.millis + " c=" + clients;
    }

    private PopulationBuilder level(String name, int clients, int total, LevelSpan span) {
        int requestsPerClient = Math.max(1, (total + clients - 1) / clients);
        var request = repeat(requestsPerClient).on(http(name)
            .get("/benchmark/latency?ms=" + this.millis)
            .check(status().is(200)));
        return LevelSpan.timed(scenario(name), request, span).injectOpen(atOnceUsers(clients));
    }

}
