package io.sprout.engine.contract;

import io.sprout.engine.MinDataRates;
import io.sprout.engine.ThreadType;
import io.sprout.engine.TimeoutKind;
import io.sprout.engine.Timeouts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What keeps a few cheap hostile connections from starving everyone else, in every combination over real sockets:
 * minimum data rates, head deadlines counted from the accept, a connection limit that sheds instead of locking
 * clients out, and idle connections that hold no buffer. Limits that must not interfere are set far beyond the
 * client's 20 s read timeout, so only the rule under test can produce the answer.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(Combination.class)
class AbuseResistanceIT {

    private static final String HOST = "Host: test\r\n";
    private static final String GET_HELLO = "GET /hello HTTP/1.1\r\n" + HOST + "\r\n";
    private static final Duration NEVER = Duration.ofMinutes(5);
    private static final Timeouts PATIENT = new Timeouts(NEVER, NEVER, NEVER, NEVER, Duration.ZERO);

    @Parameter
    Combination combination;

    @Test
    void answers408WhenAHeadArrivesSlowerThanTheMinimumRate() {
        try (RunningServer server = RunningServer.start(combination, new ContractHandler(), builder -> builder
                .timeouts(PATIENT).minDataRates(MinDataRates.NONE.withHead(1000, Duration.ofMillis(200))));
                RawClient client = server.connect()) {
            client.send("GET /hello HTTP/1.1\r\n");
            assertAnswered408AndClosed(client);
            assertThat(server.stats().timeouts(TimeoutKind.RATE)).isEqualTo(1);
            assertThat(server.stats().timeouts(TimeoutKind.HEAD)).isZero();
        }
    }

    @Test
    void answers408WhenABodyArrivesSlowerThanTheMinimumRate() {
        try (RunningServer server = RunningServer.start(combination, new ContractHandler(), builder -> builder
                .timeouts(PATIENT).minDataRates(MinDataRates.NONE.withBody(1000, Duration.ofMillis(200))));
                RawClient client = server.connect()) {
            client.send("POST /digest HTTP/1.1\r\n" + HOST + "Content-Length: 100000\r\n\r\n0123456789");
            assertAnswered408AndClosed(client);
            assertThat(server.stats().timeouts(TimeoutKind.RATE)).isEqualTo(1);
        }
    }

    @Test
    void answers408WhenTheWholeBodyMissesItsDeadline() {
        try (RunningServer server = RunningServer.start(combination, new ContractHandler(), builder -> builder
                .timeouts(PATIENT.withRequestBody(Duration.ofMillis(400))).minDataRates(MinDataRates.NONE));
                RawClient client = server.connect()) {
            client.send("POST /digest HTTP/1.1\r\n" + HOST + "Content-Length: 100000\r\n\r\n0123456789");
            assertAnswered408AndClosed(client);
            assertThat(server.stats().timeouts(TimeoutKind.BODY)).isEqualTo(1);
        }
    }

    @Test
    void servesAKeptAliveConnectionWithinItsRatesAgainAndAgain() {
        try (RunningServer server = RunningServer.start(combination, new ContractHandler());
                RawClient client = server.connect()) {
            for (int i = 0; i < 3; i++) {
                client.send("POST /echo HTTP/1.1\r\n" + HOST + "Content-Length: 5\r\n\r\nhello");
                assertThat(client.read().text()).isEqualTo("hello");
            }
            assertThat(server.stats().timeouts(TimeoutKind.RATE)).isZero();
        }
    }

    @Test
    void countsTheFirstHeadFromTheAcceptWhileEveryWorkerIsBusy() {
        BlockingHandler handler = new BlockingHandler();
        try (RunningServer server = RunningServer.start(combination, handler, builder -> builder
                .threadPoolSize(1).timeouts(PATIENT.withRequestHead(Duration.ofMillis(500)))
                .minDataRates(MinDataRates.NONE));
                RawClient busy = server.connect()) {
            busy.send("GET /block HTTP/1.1\r\n" + HOST + "\r\n");
            handler.awaitBlocked();
            try (RawClient slow = server.connect(); RawClient silent = server.connect()) {
                slow.send("GET /hello HTTP/1.1\r\n");
                assertAnswered408AndClosed(slow);
                assertThat(silent.closedByServer()).as("a connection that sent nothing closes quietly").isTrue();
            }
            assertThat(server.stats().timeouts(TimeoutKind.HEAD)).isEqualTo(2);
            handler.release();
            assertThat(busy.read().text()).isEqualTo("released");
        } finally {
            handler.release();
        }
    }

    @Test
    void shedsIdleConnectionsFirstThenTheOldestIncompleteHeadsAtTheLimit() {
        try (RunningServer server = RunningServer.start(combination, new ContractHandler(),
                builder -> builder.maxConnections(3));
                RawClient idle = server.connect()) {
            assertThat(idle.send(GET_HELLO).read().status()).isEqualTo(200);
            Await.until(() -> server.stats().connectionsIdle() == 1, "the first connection is idle");
            try (RawClient oldestHead = connectInOrder(server, 2); RawClient olderHead = connectInOrder(server, 3)) {
                oldestHead.send("GET /hello HTTP/1.1\r\n");
                olderHead.send("GET /hello HTTP/1.1\r\n");
                try (RawClient a = connectInOrder(server, 4)) {
                    assertThat(idle.closedByServer()).as("the idle connection made room first").isTrue();
                    try (RawClient b = connectInOrder(server, 5)) {
                        assertAnswered(oldestHead, 503);
                        try (RawClient c = connectInOrder(server, 6)) {
                            assertAnswered(olderHead, 503);
                            for (RawClient admitted : new RawClient[] {a, b, c}) {
                                assertThat(admitted.send(GET_HELLO).read().status()).isEqualTo(200);
                            }
                        }
                    }
                }
            }
            assertThat(server.stats().connectionsShed()).isEqualTo(3);
            assertThat(server.stats().connectionsRejected()).isZero();
        }
    }

    @Test
    void answers503AtOnceAtTheLimitWhenNothingCanBeShed() {
        BlockingHandler handler = new BlockingHandler();
        try (RunningServer server = RunningServer.start(combination, handler, builder -> builder.maxConnections(1));
                RawClient busy = server.connect()) {
            busy.send("GET /block HTTP/1.1\r\n" + HOST + "\r\n");
            handler.awaitBlocked();
            try (RawClient refused = server.connect()) {
                RawClient.Response response = refused.send(GET_HELLO).read();
                assertThat(response.status()).isEqualTo(503);
                assertThat(response.header("Connection")).isEqualTo("close");
                assertThat(refused.closedByServer()).isTrue();
            }
            assertThat(server.stats().connectionsRejected()).isEqualTo(1);
            handler.release();
            assertThat(busy.read().text()).isEqualTo("released");
        } finally {
            handler.release();
        }
    }

    @Test
    void holdsNoBufferWhileAConnectionWaitsForItsFirstOrNextRequest() {
        try (RunningServer server = RunningServer.start(combination, new ContractHandler());
                RawClient fresh = server.connect(); RawClient kept = server.connect()) {
            assertThat(kept.send(GET_HELLO).read().status()).isEqualTo(200);
            Await.until(() -> server.stats().connectionsIdle() == 1 && server.stats().connectionsAccepted() == 2,
                    "one connection is idle and the other accepted");
            assertThat(server.stats().buffersLeased()).isZero();
            assertThat(fresh.send(GET_HELLO).read().status()).isEqualTo(200);
            assertThat(kept.send(GET_HELLO).read().status()).isEqualTo(200);
        }
    }

    @Test
    void countsIdleTimeoutsByKind() {
        try (RunningServer server = RunningServer.start(combination, new ContractHandler(),
                builder -> builder.timeouts(Timeouts.DEFAULT.withIdle(Duration.ofMillis(300))));
                RawClient client = server.connect()) {
            assertThat(client.send(GET_HELLO).read().status()).isEqualTo(200);
            assertThat(client.closedByServer()).isTrue();
            assertThat(server.stats().timeouts(TimeoutKind.IDLE)).isEqualTo(1);
        }
    }

    @Test
    void keepsServingWhileThePlatformPoolIsBusy() {
        org.junit.jupiter.api.Assumptions.assumeTrue(combination.threadType == ThreadType.PLATFORM);
        BlockingHandler handler = new BlockingHandler();
        try (RunningServer server = RunningServer.start(combination, handler, builder -> builder.threadPoolSize(2));
                RawClient busy = server.connect()) {
            busy.send("GET /block HTTP/1.1\r\n" + HOST + "\r\n");
            handler.awaitBlocked();
            try (RawClient a = server.connect(); RawClient b = server.connect(); RawClient c = server.connect()) {
                a.send("GET /hello HTTP/1.1\r\n");
                b.send("GET /hello HTTP/1.1\r\n");
                assertThat(c.send(GET_HELLO).read().status()).as("slow heads hold no worker").isEqualTo(200);
                assertThat(c.send(GET_HELLO).read().status()).isEqualTo(200);
            }
            handler.release();
            assertThat(busy.read().text()).isEqualTo("released");
        } finally {
            handler.release();
        }
    }

    /** Connects the {@code nth} connection of the server, after the ones before it were accepted. */
    private static RawClient connectInOrder(RunningServer server, int nth) {
        RawClient client = server.connect();
        Await.until(() -> server.stats().connectionsAccepted() >= nth, "connection " + nth + " is accepted");
        return client;
    }

    private static void assertAnswered408AndClosed(RawClient client) {
        assertAnswered(client, 408);
    }

    private static void assertAnswered(RawClient client, int status) {
        RawClient.Response response = client.read();
        assertThat(response.status()).isEqualTo(status);
        assertThat(response.header("Connection")).isEqualTo("close");
        assertThat(client.closedByServer()).isTrue();
    }
}
