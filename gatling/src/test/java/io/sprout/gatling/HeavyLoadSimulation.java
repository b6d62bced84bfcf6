package io.sprout.gatling;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;

import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.rampUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

/**
 * The seed's later HeavyLoad simulation (about 125,000 requests at scale 1): {@code /benchmark/hello} ramping to
 * 1,000 users/s, holding, then to 1,500 users/s. Shared keep-alive connections, at most 500.
 * Assertions: p99 below 1 s, more than 99 % successful.
 */
// Gatling simulations call setUp() from their initializer by design.
@SuppressWarnings("this-escape")
public class HeavyLoadSimulation extends Simulation {

    private final LoadSettings settings = LoadSettings.fromSystemProperties();

    {
        ScenarioBuilder hello = scenario("HeavyLoad")
            .exec(http("hello").get("/benchmark/hello").check(status().is(200)));

        setUp(hello.injectOpen(rampUsersPerSec(10).to(1000).during(this.settings.seconds(30)),
                constantUsersPerSec(1000).during(this.settings.seconds(40)),
                rampUsersPerSec(1000).to(1500).during(this.settings.seconds(20)),
                constantUsersPerSec(1500).during(this.settings.seconds(30))))
            .protocols(this.settings.sharedConnections(500))
            .maxDuration(this.settings.seconds(120).plusSeconds(60))
            .assertions(global().responseTime().percentile(99.0).lt(1000),
                    global().successfulRequests().percent().gt(99.0));
    }

}
