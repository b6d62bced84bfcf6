package io.sprout.gatling;

import java.time.Duration;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;

import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

/**
 * Not a measurement: exercises every endpoint for {@code warmUpSeconds} (default 60, not scaled) at
 * {@code warmUpRate} users/s (default 50; six requests per user), so the JIT has compiled the hot paths before a
 * measured simulation starts. It has no assertions.
 */
// Gatling simulations call setUp() from their initializer by design.
@SuppressWarnings("this-escape")
public class WarmUpSimulation extends Simulation {

    private final LoadSettings settings = LoadSettings.fromSystemProperties();

    {
        ScenarioBuilder everything = scenario("WarmUp")
            .exec(http("hello").get("/benchmark/hello").check(status().is(200)))
            .exec(http("json").get("/benchmark/json").check(status().is(200)))
            .exec(http("cpu").get("/benchmark/cpu?n=35").check(status().is(200)))
            .exec(http("cpu-heavy").get("/benchmark/cpu-heavy?limit=10000").check(status().is(200)))
            .exec(http("latency").get("/benchmark/latency?ms=10").check(status().is(200)))
            .exec(http("db").get("/benchmark/db?count=10").check(status().is(200)));
        Duration duration = Duration.ofSeconds(LoadSettings.intProperty("warmUpSeconds", 60));

        setUp(everything.injectOpen(constantUsersPerSec(LoadSettings.intProperty("warmUpRate", 50)).during(duration)))
            .protocols(this.settings.sharedConnections(200))
            .maxDuration(duration.plusSeconds(30));
    }

}
