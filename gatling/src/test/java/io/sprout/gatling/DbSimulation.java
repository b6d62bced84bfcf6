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
 * Database reads through JdbcClient and HikariCP (about 7,000 requests at scale 1): {@code /benchmark/db?count=10}
 * ramping to 200 users/s and holding for 30 s. Shared keep-alive connections, at most 200.
 * Assertions: p95 below 1 s, more than 99 % successful.
 */
// Gatling simulations call setUp() from their initializer by design.
@SuppressWarnings("this-escape")
public class DbSimulation extends Simulation {

    private final LoadSettings settings = LoadSettings.fromSystemProperties();

    {
        ScenarioBuilder db = scenario("Db")
            .exec(http("db count=10").get("/benchmark/db?count=10").check(status().is(200)));

        setUp(db.injectOpen(rampUsersPerSec(10).to(200).during(this.settings.seconds(10)),
                constantUsersPerSec(200).during(this.settings.seconds(30))))
            .protocols(this.settings.sharedConnections(200))
            .maxDuration(this.settings.seconds(40).plusSeconds(60))
            .assertions(global().responseTime().percentile(95.0).lt(1000),
                    global().successfulRequests().percent().gt(99.0));
    }

}
