package io.sprout.engine.contract;

import io.sprout.engine.ShutdownResult;
import io.sprout.engine.TlsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Hostile and confused clients of a TLS port (and a TLS client of a plaintext one), over real sockets in every
 * combination: each gets a clean answer or a close, never a connection left hanging, and nothing leaks (every server
 * checks on close that no connection, request or buffer is left). Where a prompt close is the point, the handshake
 * timeout is set far beyond the client's read timeout, so only a prompt close passes.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(Combination.class)
class TlsAbuseIT {

    private static final Duration NEVER = Duration.ofMinutes(5);
    private static final int ATTACKERS = 1000;

    @Parameter
    Combination combination;

    private final TlsHandler handler = new TlsHandler();

    private RunningServer start(Duration handshakeTimeout) {
        return start(handshakeTimeout, UnaryOperator.identity());
    }

    private RunningServer start(Duration handshakeTimeout, UnaryOperator<io.sprout.engine.ServerConfig.Builder> more) {
        TlsConfig tls = TestTls.config().withHandshakeTimeout(handshakeTimeout);
        return RunningServer.start(combination, handler, builder -> more.apply(builder.tls(tls)));
    }

    @Test
    void shedsAnIdleTlsConnectionToAdmitANewOneAtTheLimit() {
        String get = "GET /hello HTTP/1.1\r\nHost: test\r\n\r\n";
        try (RunningServer server = start(NEVER, builder -> builder.maxConnections(1));
                RawClient idle = TestTls.connect(server.port())) {
            assertThat(idle.send(get).read().status()).isEqualTo(200);
            Await.until(() -> server.stats().connectionsIdle() == 1, "the first connection is idle");
            try (RawClient newcomer = TestTls.connect(server.port())) {
                assertThat(newcomer.send(get).read().status()).isEqualTo(200);
                assertThat(idle.closedByServer()).as("the idle connection made room").isTrue();
            }
            assertThat(server.stats().connectionsShed()).isEqualTo(1);
        }
    }

    @Test
    void closesAClientThatSendsNothingOnceTheHandshakeTimesOut() {
        try (RunningServer server = start(Duration.ofMillis(300)); RawClient silent = plain(server)) {
            assertThat(silent.closedByServer()).isTrue();
        }
    }

    @Test
    void closesAClientThatStopsHalfWayThroughItsClientHelloOnceTheHandshakeTimesOut() {
        byte[] hello = TestTls.clientHello("localhost");
        try (RunningServer server = start(Duration.ofMillis(300)); RawClient half = plain(server)) {
            half.send(Arrays.copyOf(hello, hello.length / 2));
            assertThat(half.closedByServer()).isTrue();
        }
    }

    @Test
    void closesATruncatedClientHelloAtOnce() {
        byte[] hello = TestTls.clientHello("localhost");
        try (RunningServer server = start(NEVER); RawClient truncated = plain(server)) {
            truncated.send(Arrays.copyOf(hello, 40)).shutdownOutput();
            assertThat(truncated.closedByServer()).isTrue();
        }
    }

    @Test
    void closesAMalformedClientHelloAtOnce() {
        byte[] serverHello = TestTls.clientHello("localhost");
        serverHello[5] = 2;
        try (RunningServer server = start(NEVER); RawClient malformed = plain(server)) {
            assertThat(malformed.send(serverHello).closedByServer()).isTrue();
        }
    }

    @Test
    void closesAClientThatSpeaksNeitherTlsNorHttpAtOnce() {
        try (RunningServer server = start(NEVER); RawClient garbage = plain(server)) {
            assertThat(garbage.send(new byte[] {0, 1, 2, 3}).closedByServer()).isTrue();
        }
    }

    @Test
    void answersPlaintextHttpOnTheTlsPortWith400InPlaintextThenCloses() {
        try (RunningServer server = start(NEVER); RawClient client = plain(server)) {
            RawClient.Response response = client.send("GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n").read();
            assertThat(response.status()).isEqualTo(400);
            assertThat(response.header("Connection")).isEqualTo("close");
            assertThat(response.text()).contains("https");
            assertThat(client.closedByServer()).isTrue();
        }
        assertThat(handler.served()).isZero();
    }

    @Test
    void answersATlsClientOfAPlaintextPortWith400AndCloses() {
        try (RunningServer server = RunningServer.start(combination, handler); RawClient client = server.connect()) {
            RawClient.Response response = client.send(TestTls.clientHello("localhost")).read();
            assertThat(response.status()).isEqualTo(400);
            assertThat(client.closedByServer()).isTrue();
        }
        try (RunningServer server = RunningServer.start(combination, handler);
                SSLSocket socket = TestTls.socket(TestTls.client(), server.port(), "localhost")) {
            assertThatThrownBy(socket::startHandshake).as("a prompt failure, not a read timeout")
                    .isInstanceOf(SSLException.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertThat(handler.served()).isZero();
    }

    @Test
    void refusesATls12RenegotiationAndServesNothingAfterIt() throws IOException {
        try (RunningServer server = start(NEVER)) {
            SSLSocket socket = TestTls.handshaken(TestTls.socket(TestTls.client(), server.port(), "localhost",
                    "TLSv1.2"));
            try (RawClient client = RawClient.over(socket)) {
                assertThat(client.send("GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n").read().status())
                        .isEqualTo(200);

                // On an established TLS 1.2 connection this sends a new ClientHello: a renegotiation.
                socket.startHandshake();

                assertThatThrownBy(() -> client.send("GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n").read())
                        .isInstanceOf(UncheckedIOException.class);
            }
            assertThat(handler.served()).as("requests served").isEqualTo(1);
        }
    }

    @Test
    void closesConnectionsStillInTheirHandshakeOnGracefulShutdown() {
        RunningServer server = start(NEVER);
        try (RawClient silent = plain(server)) {
            Await.until(() -> server.stats().connectionsOpen() == 1, "the connection is accepted");
            CompletableFuture<ShutdownResult> result = new CompletableFuture<>();
            server.server().shutdownGracefully(result::complete);
            assertThat(silent.closedByServer()).isTrue();
            assertThat(Await.future(result, "the shutdown reports")).isEqualTo(ShutdownResult.IDLE);
        } finally {
            server.close();
        }
    }

    @Test
    void servesALegitimateClientWhileAThousandConnectionsStallMidHandshakeAndLeaksNothing() throws IOException {
        // Handshakes wait on the event loop in every combination, holding no worker, so the test's small pool (far
        // fewer workers than attackers) still serves the legitimate client meanwhile.
        try (RunningServer server = start(Duration.ofSeconds(5))) {
            Set<String> threadsBefore = serverThreadsOtherThanWorkers();
            byte[] half = Arrays.copyOf(TestTls.clientHello("localhost"), 100);
            List<RawClient> attackers = new ArrayList<>();
            try {
                for (int i = 0; i < ATTACKERS; i++) {
                    attackers.add(plain(server).send(half));
                }
                Await.until(() -> server.stats().connectionsOpen() >= ATTACKERS, "every attacker is accepted");

                try (RawClient legitimate = TestTls.connect(server.port())) {
                    RawClient.Response response = legitimate.send("GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n")
                            .read();
                    assertThat(response.text()).isEqualTo("Hello, World!");
                    assertThat(server.stats().connectionsOpen()).as("attackers still held when it was served")
                            .isGreaterThan(ATTACKERS / 2);
                }

                for (RawClient attacker : attackers) {
                    assertThat(attacker.closedByServer()).isTrue();
                }
            } finally {
                attackers.forEach(RawClient::close);
            }
            server.assertSettled();
            Await.until(() -> server.stats().workersBusy() == 0, "no worker is busy");
            assertThat(serverThreadsOtherThanWorkers()).as("server threads").isEqualTo(threadsBefore);
        }
    }

    private static RawClient plain(RunningServer server) {
        return RawClient.over(TestTls.plainSocket(server.port()));
    }

    /** The server's own platform threads (loops, acceptor, timer); pool and rescue threads come and go. */
    private static Set<String> serverThreadsOtherThanWorkers() {
        Set<String> names = new TreeSet<>();
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            String name = thread.getName();
            if (name.startsWith("sprout-") && !name.matches("sprout-\\d+-(worker|rescue)-\\d+")) {
                names.add(name);
            }
        }
        return names;
    }
}
