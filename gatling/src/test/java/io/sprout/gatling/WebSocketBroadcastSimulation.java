package io.sprout.gatling;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

import io.gatling.http.action.ws.WsInboundMessage;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.Session;
import io.gatling.javaapi.core.Simulation;
import io.gatling.javaapi.http.HttpRequestActionBuilder;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.details;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.jsonPath;
import static io.gatling.javaapi.core.CoreDsl.pause;
import static io.gatling.javaapi.core.CoreDsl.rampUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;
import static io.gatling.javaapi.http.HttpDsl.ws;

/**
 * Broadcast to many open sessions: {@code sessions} subscribers connect to {@code /ws/broadcast} at an even rate over
 * {@code rampSeconds}; once the server counts them all ({@code GET /benchmark/ws/sessions}) one more user triggers
 * {@code warmUpBroadcasts} broadcasts that warm the server's broadcast path up (its JIT: a first round without them
 * was the slowest of three for four servers in five) and waits until they have arrived (at most {@code drainSeconds}),
 * then {@code broadcasts} measured broadcasts, each of {@code messages} messages of {@code size} characters
 * ({@code POST /benchmark/broadcast}), {@code gapSeconds} apart, and waits until every message the server accepted
 * has arrived (at most {@code drainSeconds}); then every session closes.
 * <p>
 * Each message carries its broadcast's start time (see {@code BroadcastMessage} in the sample app), and each
 * session reads what it received every second ({@code processUnmatchedMessages}: Gatling keeps each inbound message
 * with its receipt time), so {@link DeliveryLog} has every message's delivery time, trigger to arrival, fan-out
 * included. The simulation prints one line for the runner:
 * {@code ws-broadcast sessions=.. broadcasts=.. messages=.. size=.. expected=.. delivered=.. malformed=.. mean_ms=..
 * p50_ms=.. p95_ms=.. p99_ms=.. max_ms=.. delivering_millis=.. rate=.. heap_collected=.. warm_up_broadcasts=..
 * warm_up_expected=.. warm_up_delivered=..}, where {@code expected} is what the server reported as recipients times
 * messages of the measured broadcasts and {@code rate} is deliveries per second while they were delivering.
 * <p>
 * With {@code -DserverPid} and {@code -Djcmd} the server's heap is collected after the warm-up, before the first
 * measured broadcast ({@link ServerHeap}: why), and {@code heap_collected} says whether it was ({@code yes},
 * {@code no}: jcmd failed, {@code off}: not asked for).
 * <p>
 * Defaults at scale 1: 10,000 sessions over 20 s, 5 warm-up and 5 measured broadcasts of 10 messages of 64
 * characters, 2 s apart, 30 s drain; the durations are multiplied by {@code scale}. Asserts that every broadcast
 * request succeeded.
 */
// Gatling simulations call setUp() from their initializer by design.
@SuppressWarnings("this-escape")
public class WebSocketBroadcastSimulation extends Simulation {

    private static final String BROADCAST = "broadcast";

    private final LoadSettings settings = LoadSettings.fromSystemProperties();

    private final int sessions = LoadSettings.intProperty("sessions", 10_000);

    private final int broadcasts = LoadSettings.intProperty("broadcasts", 5);

    private final int warmUpBroadcasts = LoadSettings.intProperty("warmUpBroadcasts", 5);

    private final int messages = LoadSettings.intProperty("messages", 10);

    private final int size = LoadSettings.intProperty("size", 64);

    private final Duration ramp = this.settings.seconds(LoadSettings.intProperty("rampSeconds", 20));

    private final Duration gap = this.settings.seconds(LoadSettings.intProperty("gapSeconds", 2));

    private final Duration drain = this.settings.seconds(LoadSettings.intProperty("drainSeconds", 30));

    private final DeliveryLog deliveries = new DeliveryLog();

    private final ServerHeap serverHeap = ServerHeap.fromSystemProperties();

    /** Recipients times messages, summed over the measured broadcasts, as the server answered them. */
    private final LongAdder expected = new LongAdder();

    /** The same over the warm-up broadcasts. */
    private final LongAdder warmUpExpected = new LongAdder();

    private final AtomicBoolean done = new AtomicBoolean();

    /** Deadlines, epoch milliseconds: for the subscribers to be counted, then for the deliveries to arrive. */
    private final AtomicLong deadline = new AtomicLong(Long.MAX_VALUE);

    {
        var subscribers = scenario("subscribers").exec(ws("broadcast connect").connect("/ws/broadcast"))
            .exitHereIfFailed()
            .asLongAs(session -> !this.done.get())
            .on(pause(Duration.ofSeconds(1)).exec(ws.processUnmatchedMessages(this::record)))
            .exec(ws.processUnmatchedMessages(this::record))
            .exec(ws("broadcast close").close());
        var trigger = http(BROADCAST).post("/benchmark/broadcast?messages=" + this.messages + "&size=" + this.size)
            .check(status().is(200), jsonPath("$.sessions").ofInt().saveAs("recipients"));
        var broadcaster = scenario("broadcaster").exec(session -> {
            this.deadline.set(System.currentTimeMillis() + this.ramp.toMillis() + 60_000);
            return session.set("subscribed", 0);
        })
            .asLongAs(session -> session.getInt("subscribed") < this.sessions && beforeDeadline())
            .on(pause(Duration.ofSeconds(1)).exec(http("subscribers").get("/benchmark/ws/sessions")
                .check(status().is(200), jsonPath("$.subscribers").ofInt().saveAs("subscribed"))))
            .repeat(this.warmUpBroadcasts)
            .on(broadcast(trigger, this.warmUpExpected))
            .exec(awaitDeliveries(this.deliveries::warmUpDeliveries, this.warmUpExpected))
            .exec(session -> {
                this.serverHeap.collect();
                this.deliveries.measureFromNow();
                return session;
            })
            .pause(Duration.ofSeconds(2))
            .repeat(this.broadcasts)
            .on(broadcast(trigger, this.expected))
            .exec(awaitDeliveries(this.deliveries::deliveries, this.expected))
            .exec(session -> {
                this.done.set(true);
                return session;
            });
        int allBroadcasts = this.warmUpBroadcasts + this.broadcasts;
        Duration total = this.ramp.plusSeconds(60)
            .plus(this.gap.multipliedBy(allBroadcasts))
            .plus(this.drain.multipliedBy(2));
        setUp(subscribers.injectOpen(rampUsers(this.sessions).during(this.ramp)),
                broadcaster.injectOpen(atOnceUsers(1)))
            .protocols(this.settings.webSockets(allBroadcasts * this.messages + 16))
            .maxDuration(total.plusSeconds(60))
            .assertions(details(BROADCAST).successfulRequests().percent().is(100.0));
    }

    @Override
    public void after() {
        long delivered = this.deliveries.deliveries();
        long millis = this.deliveries.deliveringMillis();
        System.out.printf("ws-broadcast sessions=%d broadcasts=%d messages=%d size=%d expected=%d delivered=%d "
                + "malformed=%d mean_ms=%.1f p50_ms=%d p95_ms=%d p99_ms=%d max_ms=%d delivering_millis=%d rate=%.1f "
                + "heap_collected=%s warm_up_broadcasts=%d warm_up_expected=%d warm_up_delivered=%d%n",
                this.sessions, this.deliveries.broadcasts(), this.messages, this.size, this.expected.sum(), delivered,
                this.deliveries.malformed(), this.deliveries.meanMillis(), this.deliveries.percentileMillis(50),
                this.deliveries.percentileMillis(95), this.deliveries.percentileMillis(99),
                this.deliveries.percentileMillis(100), millis, (millis == 0) ? 0.0 : delivered * 1000.0 / millis,
                this.serverHeap.collected(), this.warmUpBroadcasts, this.warmUpExpected.sum(),
                this.deliveries.warmUpDeliveries());
    }

    /** Triggers one broadcast, adds what the server reported (recipients times messages) to {@code into}, pauses. */
    private ChainBuilder broadcast(HttpRequestActionBuilder trigger, LongAdder into) {
        return exec(trigger).exec(session -> {
            into.add((long) session.getInt("recipients") * this.messages);
            return session;
        }).pause(this.gap);
    }

    /** Waits, at most {@code drainSeconds}, until {@code delivered} reaches what the server reported. */
    private ChainBuilder awaitDeliveries(LongSupplier delivered, LongAdder expected) {
        return exec(session -> {
            this.deadline.set(System.currentTimeMillis() + this.drain.toMillis());
            return session;
        }).asLongAs(session -> delivered.getAsLong() < expected.sum() && beforeDeadline())
            .on(pause(Duration.ofMillis(500)));
    }

    private boolean beforeDeadline() {
        return System.currentTimeMillis() < this.deadline.get();
    }

    private Session record(List<WsInboundMessage> received, Session session) {
        for (WsInboundMessage message : received) {
            if (message instanceof WsInboundMessage.Text text) {
                this.deliveries.record(text.message(), text.timestamp());
            }
        }
        return session;
    }

}
