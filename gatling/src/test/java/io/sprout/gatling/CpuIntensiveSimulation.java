package io.sprout.gatling;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;

import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.nothingFor;
import static io.gatling.javaapi.core.CoreDsl.rampUsers;
import static io.gatling.javaapi.core.CoreDsl.rampUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

/**
 * The seed's CpuIntensive simulation (about 2,200 requests at scale 1): {@code /benchmark/cpu?n=35} ramping to
 * 50 users/s, and {@code /benchmark/cpu-heavy?limit=10000} at 20 users/s from the 10th second.
 * Assertions: mean below 5 s, p95 below 10 s, more than 99 % successful.
 */
// Gatling simulations call setUp() from their initializer by design.
@SuppressWarnings("this-escape")
public class CpuIntensiveSimulation extends Simulation {

    private final LoadSettings settings = LoadSettings.fromSystemProperties();

    {
        ScenarioBuilder fibonacci = scenario("CpuIntensive fibonacci")
            .exec(http("cpu n=35").get("/benchmark/cpu?n=35").check(status().is(200)));
        ScenarioBuilder sieve = scenario("CpuIntensive sieve")
            .exec(http("cpu-heavy limit=10000").get("/benchmark/cpu-heavy?limit=10000").check(status().is(200)));

        setUp(fibonacci.injectOpen(rampUsers(5).during(this.settings.seconds(5)),
                rampUsers(20).during(this.settings.seconds(10)),
                constantUsersPerSec(30).during(this.settings.seconds(20)),
                rampUsersPerSec(30).to(50).during(this.settings.seconds(10)),
                constantUsersPerSec(50).during(this.settings.seconds(15))),
                sieve.injectOpen(nothingFor(this.settings.seconds(10)),
                        rampUsers(10).during(this.settings.seconds(10)),
                        constantUsersPerSec(20).during(this.settings.seconds(20))))
            .protocols(this.settings.sharedConnections(200))
            .maxDuration(this.settings.seconds(60).plusSeconds(60))
            .assertions(global().responseTime().mean().lt(5000),
                    global().responseTime().percentile(95.0).lt(10000),
                    global().successfulRequests().percent().gt(99.0));
    }

}
