package io.sprout.gatling;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;

import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.nothingFor;
import static io.gatling.javaapi.core.CoreDsl.rampUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

/**
 * The seed's Latency simulation (about 24,000 requests at scale 1): blocking endpoints in staggered phases,
 * {@code /latency?ms=50} up to 300 users/s, {@code ms=100} up to 200, {@code ms=200} up to 150 and
 * {@code /mixed} up to 100. Shared keep-alive connections, at most 300.
 * Assertions: mean below 1 s, p99 below 3 s, more than 99 % successful.
 */
// Gatling simulations call setUp() from their initializer by design.
@SuppressWarnings("this-escape")
public class LatencySimulation extends Simulation {

    private final LoadSettings settings = LoadSettings.fromSystemProperties();

    {
        setUp(latency(50).injectOpen(rampUsersPerSec(10).to(300).during(this.settings.seconds(20)),
                constantUsersPerSec(300).during(this.settings.seconds(30))),
                latency(100).injectOpen(nothingFor(this.settings.seconds(5)),
                        rampUsersPerSec(10).to(200).during(this.settings.seconds(20)),
                        constantUsersPerSec(200).during(this.settings.seconds(25))),
                latency(200).injectOpen(nothingFor(this.settings.seconds(10)),
                        rampUsersPerSec(10).to(150).during(this.settings.seconds(15)),
                        constantUsersPerSec(150).during(this.settings.seconds(15))),
                scenario("Latency mixed").exec(http("mixed").get("/benchmark/mixed").check(status().is(200)))
                    .injectOpen(nothingFor(this.settings.seconds(15)),
                            rampUsersPerSec(10).to(100).during(this.settings.seconds(10)),
                            constantUsersPerSec(100).during(this.settings.seconds(10))))
            .protocols(this.settings.sharedConnections(300))
            .maxDuration(this.settings.seconds(50).plusSeconds(60))
            .assertions(global().responseTime().mean().lt(1000),
                    global().responseTime().percentile(99.0).lt(3000),
                    global().successfulRequests().percent().gt(99.0));
    }

    private static ScenarioBuilder latency(int millis) {
        return scenario("Latency " + millis + " ms")
            .exec(http("latency ms=" + millis).get("/benchmark/latency?ms=" + millis).check(status().is(200)));
    }

}
