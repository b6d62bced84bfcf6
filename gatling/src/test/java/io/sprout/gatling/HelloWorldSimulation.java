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
 * The seed's HelloWorld simulation (about 8,700 requests at scale 1): a 15 s warm-up on {@code /benchmark/hello},
 * then a ramp to 200 users/s. Open model, one request per user, shared keep-alive connections (at most 200).
 * Assertions: max response time below 1 s, more than 99 % successful.
 */
// Gatling simulations call setUp() from their initializer by design.
@SuppressWarnings("this-escape")
public class HelloWorldSimulation extends Simulation {

    private final LoadSettings settings = LoadSettings.fromSystemProperties();

    {
        ScenarioBuilder warmUp = scenario("HelloWorld warm-up")
            .exec(http("hello (warm-up)").get("/benchmark/hello").check(status().is(200)));
        ScenarioBuilder load = scenario("HelloWorld load")
            .exec(http("hello").get("/benchmark/hello").check(status().is(200)));

        setUp(warmUp.injectOpen(rampUsers(5).during(this.settings.seconds(5)),
                constantUsersPerSec(10).during(this.settings.seconds(10))),
                load.injectOpen(nothingFor(this.settings.seconds(15)),
                        rampUsers(10).during(this.settings.seconds(5)),
                        rampUsers(50).during(this.settings.seconds(10)),
                        constantUsersPerSec(100).during(this.settings.seconds(30)),
                        rampUsersPerSec(100).to(200).during(this.settings.seconds(10)),
                        constantUsersPerSec(200).during(this.settings.seconds(20))))
            .protocols(this.settings.sharedConnections(200))
            .maxDuration(this.settings.seconds(90).plusSeconds(60))
            .assertions(global().responseTime().max().lt(1000), global().successfulRequests().percent().gt(99.0));
    }

}
