package io.sprout.gatling;

import java.util.Arrays;
import java.util.List;

import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.Simulation;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.global;
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
 * System properties: {@code levels} (default {@code 500,1000,2000}), {@code requests} per level (default 10,000,
 * multiplied by {@code scale}, at least one per client), {@code ms} (default 100). The comparison runner runs one
 * level per Gatling run ({@code -Dlevels=1000}), so that each level gets its own percentiles.
 */
// Gatling simulations call setUp() from their initializer by design.
@SuppressWarnings("this-escape")
public class ConcurrencySimulation extends Simulation {

    private final LoadSettings settings = LoadSettings.fromSystemProperties();

    {
        List<Integer> levels = Arrays.stream(System.getProperty("levels", "500,1000,2000").split(","))
            .map(String::trim)
            .map(Integer::valueOf)
            .toList();
        int requests = this.settings.scaledCount(LoadSettings.intProperty("requests", 10_000), 1);
        int millis = LoadSettings.intProperty("ms", 100);

        PopulationBuilder chain = null;
        for (int i = levels.size() - 1; i >= 0; i--) {
            PopulationBuilder level = level(levels.get(i), requests, millis);
            chain = (chain != null) ? level.andThen(chain) : level;
        }
        setUp(chain).protocols(this.settings.perUserConnections())
            .maxDuration(this.settings.seconds(120 * levels.size()).plusSeconds(60))
            .assertions(global().successfulRequests().percent().gt(99.0));
    }

    private static PopulationBuilder level(int clients, int requests, int millis) {
        int requestsPerClient = Math.max(1, (requests + clients - 1) / clients);
        return scenario("Concurrency " + clients)
            .exec(repeat(requestsPerClient).on(http("latency ms=" + millis + " c=" + clients)
                .get("/benchmark/latency?ms=" + millis)
                .check(status().is(200))))
            .injectOpen(atOnceUsers(clients));
    }

}
