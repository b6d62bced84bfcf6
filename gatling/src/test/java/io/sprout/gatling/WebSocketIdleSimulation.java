package io.sprout.gatling;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import io.gatling.javaapi.core.Simulation;

import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.rampUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.ws;

/**
 * {@code sessions} idle WebSocket sessions on {@code /ws/echo}: opened at an even rate over {@code rampSeconds},
 * then held, sending nothing, until {@code rampSeconds + holdSeconds} after the start, and closed together. The
 * simulation measures only the handshakes; the runner measures the server while every session is open: it waits
 * until {@code GET /benchmark/ws/sessions} counts them all and reads the server process's resident memory (RSS)
 * before the run and then, which gives the memory an idle session costs.
 * <p>
 * System properties: {@code sessions} (default 10,000), {@code rampSeconds} (default 20) and {@code holdSeconds}
 * (default 20), both multiplied by {@code scale}, and {@code localAddresses} (see {@link LoadSettings}). Asserts
 * that more than 99 % of the handshakes succeed.
 */
// Gatling simulations call setUp() from their initializer by design.
@SuppressWarnings("this-escape")
public class WebSocketIdleSimulation extends Simulation {

    private final LoadSettings settings = LoadSettings.fromSystemProperties();

    private final int sessions = LoadSettings.intProperty("sessions", 10_000);

    private final Duration ramp = this.settings.seconds(LoadSettings.intProperty("rampSeconds", 20));

    private final Duration hold = this.settings.seconds(LoadSettings.intProperty("holdSeconds", 20));

    /** When every session closes, epoch milliseconds; set when the run starts. */
    private final AtomicLong closeAt = new AtomicLong();

    {
        var idle = scenario("idle sessions").exec(ws("idle connect").connect("/ws/echo"))
            .exitHereIfFailed()
            .pause(session -> Duration.ofMillis(Math.max(0, this.closeAt.get() - System.currentTimeMillis())))
            .exec(ws("idle close").close());
        setUp(idle.injectOpen(rampUsers(this.sessions).during(this.ramp))).protocols(this.settings.webSockets(0))
            .maxDuration(this.ramp.plus(this.hold).plusSeconds(90))
            .assertions(global().successfulRequests().percent().gt(99.0));
    }

    @Override
    public void before() {
        this.closeAt.set(System.currentTimeMillis() + this.ramp.plus(this.hold).toMillis());
        System.out.printf("ws-idle sessions=%d ramp-millis=%d hold-millis=%d%n", this.sessions, this.ramp.toMillis(),
                this.hold.toMillis());
    }

}
