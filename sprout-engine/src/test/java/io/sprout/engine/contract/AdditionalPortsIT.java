package io.sprout.engine.contract;

import io.sprout.engine.PortBindException;
import io.sprout.engine.ServerConfig;
import io.sprout.engine.ShutdownResult;
import io.sprout.engine.SproutServer;
import io.sprout.engine.server.Sprout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.net.BindException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A server listening on more than one port ({@code ServerConfig.additionalPorts}): every port serves, they share
 * one admission limit, a port that cannot be bound is named and leaves nothing listening, and shutdown closes
 * every listener.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(Combination.class)
class AdditionalPortsIT {

    private static final String GET_HELLO = "GET /hello HTTP/1.1\r\nHost: test\r\n\r\n";

    @Parameter
    Combination combination;

    private RunningServer startWithAdditionalPorts(List<Integer> additional) {
        return RunningServer.start(combination, new ContractHandler(), builder -> builder.additionalPorts(additional));
    }

    @Test
    void servesOnTheMainPortAndEveryAdditionalPort() {
        try (RunningServer server = startWithAdditionalPorts(List.of(0, 0))) {
            List<Integer> ports = server.server().ports();
            assertThat(ports).hasSize(3).doesNotHaveDuplicates().allMatch(port -> port > 0);
            assertThat(ports.getFirst()).isEqualTo(server.port());
            for (int port : ports) {
                try (RawClient client = RawClient.connect(port)) {
                    assertThat(client.send(GET_HELLO).read().text()).as("port " + port).isEqualTo("Hello, World!");
                }
            }
            assertThat(server.stats().connectionsAccepted()).isEqualTo(3);
        }
    }

    @Test
    void listensOnlyOnTheMainPortByDefault() {
        try (RunningServer server = RunningServer.start(combination, new ContractHandler())) {
            assertThat(server.server().ports()).containsExactly(server.port());
        }
    }

    @Test
    void portsShareOneConnectionLimit() {
        try (RunningServer server = RunningServer.start(combination, new ContractHandler(),
                builder -> builder.additionalPorts(List.of(0)).maxConnections(1));
                RawClient first = server.connect()) {
            assertThat(first.send(GET_HELLO).read().status()).isEqualTo(200);
            Await.until(() -> server.stats().connectionsIdle() == 1, "the first connection is idle");
            try (RawClient other = RawClient.connect(server.server().ports().get(1))) {
                assertThat(other.send(GET_HELLO).read().text()).isEqualTo("Hello, World!");
                assertThat(first.closedByServer()).as("the main port's idle connection made room").isTrue();
                assertThat(server.stats().connectionsShed()).isEqualTo(1);
            }
        }
    }

    @Test
    void aTakenAdditionalPortIsNamedAndNothingStaysListening() throws IOException {
        int main = freePort();
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            SproutServer server = Sprout.server(ServerConfig.builder()
                    .address(InetAddress.getLoopbackAddress()).port(main).additionalPorts(List.of(taken.getLocalPort()))
                    .executionMode(combination.mode).threadType(combination.threadType).threadPoolSize(4)
                    .selectorThreads(1).build(), new ContractHandler());
            assertThatExceptionOfType(PortBindException.class).isThrownBy(server::start)
                    .satisfies(e -> assertThat(e.port()).isEqualTo(taken.getLocalPort()))
                    .withCauseInstanceOf(BindException.class);
            assertThat(server.running()).isFalse();
            assertThat(server.ports()).isEmpty();
            assertThatExceptionOfType(ConnectException.class).as("the main port was released")
                    .isThrownBy(() -> new Socket(InetAddress.getLoopbackAddress(), main).close());
        }
    }

    @Test
    void gracefulShutdownClosesEveryListener() throws Exception {
        try (RunningServer server = startWithAdditionalPorts(List.of(0))) {
            List<Integer> ports = server.server().ports();
            CompletableFuture<ShutdownResult> result = new CompletableFuture<>();
            server.server().shutdownGracefully(result::complete);
            assertThat(result.get()).isEqualTo(ShutdownResult.IDLE);
            assertThat(server.server().ports()).isEmpty();
            for (int port : ports) {
                assertThatExceptionOfType(ConnectException.class).as("port " + port)
                        .isThrownBy(() -> new Socket(InetAddress.getLoopbackAddress(), port).close());
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            return probe.getLocalPort();
        }
    }
}
