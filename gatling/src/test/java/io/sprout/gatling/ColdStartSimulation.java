package io.sprout.gatling;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.rampUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

/**
 * A cold server under a burst: {@code coldUsers} (default 2,000) users at once, each on a new connection, the moment
 * {@code /benchmark/health} first answers 200, then a ramp from 10 to 200 users/s over 20 s (scaled). Every failed
 * request counts: a correct server loses none, however cold (the seed server lost up to 31 %).
 * <p>
 * Start it together with the server: {@link #before()} polls the health endpoint every 20 ms for up to
 * {@code readyTimeoutSeconds} (default 120) before injecting anything.
 */
// Gatling simulations call setUp() from their initializer by design.
@SuppressWarnings("this-escape")
public class ColdStartSimulation extends Simulation {

    private final LoadSettings settings = LoadSettings.fromSystemProperties();

    {
        ScenarioBuilder burst = scenario("ColdStart burst")
            .exec(http("hello (burst)").get("/benchmark/hello").check(status().is(200)));
        ScenarioBuilder ramp = scenario("ColdStart ramp")
            .exec(http("hello (ramp)").get("/benchmark/hello").check(status().is(200)));

        setUp(burst.injectOpen(atOnceUsers(LoadSettings.intProperty("coldUsers", 2000))),
                ramp.injectOpen(rampUsersPerSec(10).to(200).during(this.settings.seconds(20))))
            .protocols(this.settings.perUserConnections())
            .maxDuration(this.settings.seconds(20).plusSeconds(90))
            .assertions(global().failedRequests().count().is(0L));
    }

    @Override
    public void before() {
        URI health = URI.create(this.settings.baseUrl() + "/benchmark/health");
        Duration timeout = Duration.ofSeconds(LoadSettings.intProperty("readyTimeoutSeconds", 120));
        long deadline = System.nanoTime() + timeout.toNanos();
        long start = System.nanoTime();
        try (HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build()) {
            HttpRequest request = HttpRequest.newBuilder(health).timeout(Duration.ofSeconds(2)).GET().build();
            while (System.nanoTime() < deadline) {
                try {
                    if (client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                        // compare.sh reads ready-epoch-ms to compute the time from JVM launch to the first 200.
                        System.out.printf("ColdStart: %s answered 200 after %d ms of polling, ready-epoch-ms=%d%n",
                                health, Duration.ofNanos(System.nanoTime() - start).toMillis(),
                                System.currentTimeMillis());
                        return;
                    }
                }
                catch (IOException ex) {
                    // Not listening yet: expected while the server starts, poll again.
                }
                Thread.sleep(20);
            }
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        throw new IllegalStateException("ColdStart: " + health + " did not answer 200 in time");
    }

}
