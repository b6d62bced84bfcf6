package io.sprout.gatling;

import java.time.Duration;
import java.util.Collections;
import java.util.List;

import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.Session;
import io.gatling.javaapi.core.Simulation;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.bodyString;
import static io.gatling.javaapi.core.CoreDsl.during;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.ws;

/**
 * WebSocket round trips on {@code /ws/echo}: a closed model of {@code C} sessions, each sending a text message and
 * awaiting its echo, back to back, for a fixed time, for each level {@code C} in turn. Each round trip is one
 * Gatling request ({@code ws echo c=1000}: send to matching echo), so the report gives its percentiles; the runner
 * divides the level's round trips by the level's span, which the simulation prints as
 * {@code echo-level clients=1000 millis=30012}, for messages per second (one message each way per round trip).
 * <p>
 * As in {@link AsyncLatencySimulation}, an unmeasured warm-up level at the largest {@code C} runs first in the same
 * Gatling JVM, and a level's span starts once its sessions are connected, so the handshakes are not in the rate.
 * Every echo must equal the message sent, which carries the session and its counter, so a stray or reordered
 * message fails the check.
 * <p>
 * System properties: {@code levels} (default {@code 1000}), {@code levelSeconds} (default 30), {@code warmUpSeconds}
 * (default 20, 0 skips the warm-up; both multiplied by {@code scale}), {@code size} (characters per message,
 * default 64). Each level asserts more than 99 % successful round trips.
 */
// Gatling simulations call setUp() from their initializer by design.
@SuppressWarnings("this-escape")
public class WebSocketEchoSimulation extends Simulation {

    private static final Duration ECHO_TIMEOUT = Duration.ofSeconds(10);

    private final LoadSettings settings = LoadSettings.fromSystemProperties();

    private final LevelRun run = new LevelRun();

    private final List<Integer> levels = LoadSettings.intListProperty("levels", "1000");

    private final int size = LoadSettings.intProperty("size", 64);

    {
        Duration total = Duration.ZERO;
        int warmUpSeconds = LoadSettings.intProperty("warmUpSeconds", 20);
        if (warmUpSeconds > 0) {
            Duration warmUp = this.settings.seconds(warmUpSeconds);
            this.run.warmUp(level("ws echo warm-up", Collections.max(this.levels), warmUp, null));
            total = total.plus(warmUp);
        }
        Duration levelDuration = this.settings.seconds(LoadSettings.intProperty("levelSeconds", 30));
        for (int clients : this.levels) {
            String name = "ws echo c=" + clients;
            this.run.level(clients, name, (span) -> level(name, clients, levelDuration, span));
            total = total.plus(levelDuration);
        }
        // Each phase ends at most one echo time-out after its duration, plus its handshakes.
        setUp(this.run.chain()).protocols(this.settings.webSockets(0))
            .maxDuration(total.plusSeconds(60L * this.run.phaseCount() + 30))
            .assertions(this.run.assertions());
    }

    @Override
    public void after() {
        this.run.printSpans((clients, millis) -> "echo-level clients=%d millis=%d".formatted(clients, millis));
    }

    private PopulationBuilder level(String name, int clients, Duration duration, LevelSpan span) {
        var roundTrip = ws(name).sendText(this::message)
            .await(ECHO_TIMEOUT)
            .on(ws.checkTextMessage(name).check(bodyString().is(this::message)));
        var connected = scenario(name).exec(ws("ws connect").connect("/ws/echo")).exitHereIfFailed();
        var loop = during(duration, "i").on(roundTrip);
        return LevelSpan.timed(connected, loop, span).exec(ws("ws close").close()).injectOpen(atOnceUsers(clients));
    }

    /** {@code echo <user> <counter> } padded with {@code x} to {@code size} characters: unique per round trip. */
    private String message(Session session) {
        StringBuilder text = new StringBuilder(this.size).append("echo ")
            .append(session.userId())
            .append(' ')
            .append(session.getInt("i"))
            .append(' ');
        while (text.length() < this.size) {
            text.append('x');
        }
        return text.toString();
    }

}
