package io.sprout.gatling;

import static io.gatling.javaapi.core.CoreDsl.bodyString;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.rampUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;

/**
 * HTTP/2 over TLS, agreed by ALPN ({@code enableHttp2}), against a Spring MVC app with
 * {@code server.http2.enabled=true} and {@code server.ssl.*}: every request asks {@code /benchmark/protocol} or
 * {@code /benchmark/hello} and the protocol one must answer {@code HTTP/2.0}, so a silent fall-back to HTTP/1.1
 * fails the run instead of being measured. A 10 s ramp to 200 users/s, then 30 s at 200 users/s (scaled); each user
 * sends three requests on the connection the users share. Assertion: no request fails.
 */
// Gatling simulations call setUp() from their initializer by design.
@SuppressWarnings("this-escape")
public class Http2TlsSimulation extends Simulation {

    private final LoadSettings settings = LoadSettings.fromSystemProperties();

    {
        ScenarioBuilder h2 = scenario("HTTP/2 over TLS")
            .exec(http("protocol").get("/benchmark/protocol").check(status().is(200), bodyString().is("HTTP/2.0")))
            .exec(http("hello").get("/benchmark/hello").check(status().is(200)))
            .exec(http("json").get("/benchmark/json").check(status().is(200)));

        setUp(h2.injectOpen(rampUsersPerSec(10).to(200).during(this.settings.seconds(10)),
                constantUsersPerSec(200).during(this.settings.seconds(30))))
            .protocols(this.settings.sharedConnections(16).enableHttp2())
            .maxDuration(this.settings.seconds(40).plusSeconds(60))
            .assertions(global().failedRequests().count().is(0L));
    }

}
