package io.sprout.gatling;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import io.gatling.javaapi.core.Session;
import io.gatling.javaapi.core.Simulation;

import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.pause;
import static io.gatling.javaapi.core.CoreDsl.rampUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.ws;

/**
 * {@code sessions} idle WebSocket sessions on {@code /ws/echo}: opened at an even rate over {@code rampSeconds},
 * then held, sending nothing, for {@code holdSeconds} after the last handshake has finished, and closed together.
 * The simulation measures only the handshakes; the runner measures the server while every session is open: when the
 * last handshake has finished the simulation prints {@code ws-idle handshakes=10000 open=9998}, and the runner reads
 * the server process's resident memory (RSS), which it compares with a reading taken before the run.
 * <p>
 * The hold starts from the last handshake rather than from the start, so a slow server still has every session
 * open for the whole hold; it ends at the latest {@value #GIVE_UP_SECONDS} s after the ramp, handshakes finished or
 * not.
 * <p>
 * System properties: {@code sessions} (default 10,000), {@code rampSeconds} (default 20) and {@code holdSeconds}
 * (default 20), both multiplied by {@code scale}, and {@code localAddresses} (see {@link LoadSettings}). Asserts
 * that more than 99 % of the handshakes succeed.
 */
// Gatling simulations call setUp() from their initializer by design.
@SuppressWarnings("this-escape")
public class WebSocketIdleSimulation extends Simulation {

    static final int GIVE_UP_SECONDS = 120;

    private final LoadSettings settings = LoadSettings.fromSystemProperties();

    private final int sessions = LoadSettings.intProperty("sessions", 10_000);

    private final Duration ramp = this.settings.seconds(LoadSettings.intProperty("rampSeconds", 20));

    private final Duration hold = this.settings.seconds(LoadSettings.intProperty("holdSeconds", 20));

    private final LongAdder handshakes = new LongAdder();

    private final LongAdder open = new LongAdder();

    /** Epoch milliseconds: when every session closes (unknown until the last handshake), and the latest that may be. */
    private final AtomicLong closeAt = new AtomicLong(Long.MAX_VALUE);

    private final AtomicLong giveUpAt = new AtomicLong(Long.MAX_VALUE);

    {
        var idle = scenario("idle sessions").exec(ws("idle connect").connect("/ws/echo"))
            .exec(this::handshakeFinished)
            .exitHereIfFailed()
            .asLongAs(session -> !closing())
            .on(pause(Duration.ofMillis(500)))
            .exec(ws("idle close").close());
        setUp(idle.injectOpen(rampUsers(this.sessions).during(this.ramp))).protocols(this.settings.webSockets(0))
            .maxDuration(this.ramp.plus(this.hold).plusSeconds(GIVE_UP_SECONDS + 60))
            .assertions(global().successfulRequests().percent().gt(99.0));
    }

    @Override
    public void before() {
        this.giveUpAt.set(System.currentTimeMillis() + this.ramp.plus(this.hold).plusSeconds(GIVE_UP_SECONDS).toMillis());
    }

    private Session handshakeFinished(Session session) {
        if (!session.isFailed()) {
            this.open.increment();
        }
        this.handshakes.increment();
        if (this.handshakes.sum() == this.sessions
                && this.closeAt.compareAndSet(Long.MAX_VALUE, System.currentTimeMillis() + this.hold.toMillis())) {
            System.out.printf("ws-idle handshakes=%d open=%d%n", this.sessions, this.open.sum());
        }
        return session;
    }

    private boolean closing() {
        long now = System.currentTimeMillis();
        return now >= this.closeAt.get() || now >= this.giveUpAt.get();
    }

}
