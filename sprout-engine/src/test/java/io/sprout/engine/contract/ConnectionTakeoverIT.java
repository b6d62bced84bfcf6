package io.sprout.engine.contract;

import io.sprout.engine.RequestHandler;
import io.sprout.engine.ServerConfig;
import io.sprout.engine.ShutdownResult;
import io.sprout.engine.Timeouts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Connection takeover over real sockets in every combination: {@code upgrade()} answers 101 and hands the raw
 * connection to the application ({@link RawEcho}), including the bytes the client sent right behind the head; the
 * HTTP/1.1 machinery reads nothing more. Each server checks on close that nothing is left behind.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(Combination.class)
class ConnectionTakeoverIT {

    private static final String UPGRADE_REQUEST =
            "GET /echo HTTP/1.1\r\nHost: test\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\n";

    @Parameter
    Combination combination;

    private final TaskLog log = new TaskLog();
    private final CompletableFuture<Suspended> upgraded = new CompletableFuture<>();
    private final CompletableFuture<RawEcho> echo = new CompletableFuture<>();

    @Test
    void deliversTheBytesBehindTheHeadAndEverythingAfterToTheNewProtocol() {
        try (RunningServer server = start(); RawClient client = server.connect()) {
            client.send(UPGRADE_REQUEST + "early");

            RawClient.Response head = client.readHead();
            assertThat(head.status()).isEqualTo(101);
            assertThat(head.header("Upgrade")).isEqualTo("echo");
            assertThat(head.header("Connection")).isEqualTo("Upgrade");
            assertThat(client.readText(5)).isEqualTo("early");
            String looksLikeHttp = "GET /not-parsed HTTP/1.1\r\nHost: test\r\n\r\n";
            assertThat(client.send(looksLikeHttp).readText(looksLikeHttp.length())).isEqualTo(looksLikeHttp);
            assertThat(server.stats().requestsActive()).as("an upgraded connection is no active request").isZero();
            assertThat(server.stats().exchangesDetached()).isEqualTo(1);
        }
    }

    @Test
    void takesOverATlsConnectionWithTheRecordsAlreadyReadBehindTheHead() throws IOException {
        try (RunningServer server = start(TestTls.https()); RawClient client = TestTls.connect(server.port())) {
            // One TLS write: the head and "early" share records, so the bytes behind the head are decrypted already.
            client.send(UPGRADE_REQUEST + "early");

            assertThat(client.readHead().status()).isEqualTo(101);
            assertThat(client.readText(5)).isEqualTo("early");
            String more = "x".repeat(100_000);
            assertThat(client.send(more).readText(more.length())).isEqualTo(more);
            client.shutdownOutput();
            assertThat(client.input().read()).as("end of stream after close_notify").isEqualTo(-1);
            assertThat(Await.future(upgraded, "the upgrade").awaitEnd()).isNull();
        }
    }

    @Test
    void closesCleanlyWhenTheUpgradedExchangeCompletes() throws IOException {
        try (RunningServer server = start(); RawClient client = server.connect()) {
            client.send(UPGRADE_REQUEST);
            assertThat(client.readHead().status()).isEqualTo(101);
            assertThat(client.send("ping").readText(4)).isEqualTo("ping");

            client.shutdownOutput();

            assertThat(client.input().read()).as("end of stream, not a reset").isEqualTo(-1);
            assertThat(Await.future(upgraded, "the upgrade").awaitEnd()).isNull();
        }
    }

    @Test
    void runsTheShutdownTaskOfAnUpgradedConnectionOnGracefulShutdown() throws IOException {
        try (RunningServer server = start(); RawClient client = server.connect()) {
            client.send(UPGRADE_REQUEST);
            assertThat(client.readHead().status()).isEqualTo(101);
            assertThat(client.send("ping").readText(4)).isEqualTo("ping");
            CompletableFuture<ShutdownResult> result = new CompletableFuture<>();

            server.server().shutdownGracefully(result::complete);

            assertThat(Await.future(result, "the shutdown reports"))
                    .as("graceful shutdown does not wait for an upgraded connection").isEqualTo(ShutdownResult.IDLE);
            assertThat(client.readText(RawEcho.GOODBYE_TEXT.length())).isEqualTo(RawEcho.GOODBYE_TEXT);
            assertThat(client.input().read()).as("end of stream, not a reset").isEqualTo(-1);
            assertThat(Await.future(upgraded, "the upgrade").awaitEnd()).isNull();
        }
        assertThat(log.entries()).filteredOn(entry -> entry.label().equals("shutdown")).singleElement()
                .satisfies(entry -> assertThat(entry.onWorker()).isTrue());
    }

    @Test
    void appliesTheIdleTimeoutToAnUpgradedConnectionThatWaitsForBytes() {
        try (RunningServer server = start(config -> config.timeouts(Timeouts.DEFAULT.withIdle(Duration.ofMillis(300))));
                RawClient client = server.connect()) {
            client.send(UPGRADE_REQUEST);
            assertThat(client.readHead().status()).isEqualTo(101);

            assertThat(client.closedByServer()).isTrue();
            IOException failure = Await.future(Await.future(echo, "the upgrade").failure(), "the read fails");
            assertThat(failure).isInstanceOf(SocketTimeoutException.class);
            assertThat(Await.future(upgraded, "the upgrade").awaitEnd()).isSameAs(failure);
        }
    }

    private RunningServer start() {
        return start(UnaryOperator.identity());
    }

    private RunningServer start(UnaryOperator<ServerConfig.Builder> config) {
        RequestHandler handler = (request, response) -> {
            Suspended exchange = Suspended.start(request, response);
            upgraded.complete(exchange);
            echo.complete(RawEcho.upgrade(exchange, log));
        };
        return RunningServer.start(combination, handler, config);
    }
}
