package io.sprout.engine.contract;

import io.sprout.engine.HttpLimits;
import io.sprout.engine.RequestBodyException;
import io.sprout.engine.ShutdownResult;
import io.sprout.engine.ThreadType;
import io.sprout.engine.Timeouts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The transport contract: what every combination of execution mode and thread type must do, over real sockets.
 * Each test starts its own server on an ephemeral port and, on close, checks that no connection, request or
 * buffer is left behind.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(Combination.class)
class TransportContractIT {

    private static final String HOST = "Host: test\r\n";

    @Parameter
    Combination combination;

    private RunningServer start() {
        return RunningServer.start(combination, new ContractHandler());
    }

    @Test
    void servesSeveralRequestsOnOneKeepAliveConnection() {
        try (RunningServer server = start(); RawClient client = server.connect()) {
            for (int i = 0; i < 3; i++) {
                RawClient.Response response = client.send("GET /hello HTTP/1.1\r\n" + HOST + "\r\n").read();
                assertThat(response.status()).isEqualTo(200);
                assertThat(response.text()).isEqualTo("Hello, World!");
                assertThat(response.header("Content-Length")).isEqualTo("13");
                assertThat(response.header("Connection")).isNull();
                assertThat(response.header("Date")).endsWith("GMT");
                assertThat(response.header("Server")).isEqualTo("Sprout");
            }
        }
    }

    @Test
    void servesPipelinedRequestsInOrder() {
        try (RunningServer server = start(); RawClient client = server.connect()) {
            StringBuilder pipeline = new StringBuilder();
            for (int i = 1; i <= 5; i++) {
                pipeline.append("GET /query?").append(i).append(" HTTP/1.1\r\n").append(HOST).append("\r\n");
            }
            client.send(pipeline.toString());
            for (int i = 1; i <= 5; i++) {
                assertThat(client.read().text()).isEqualTo(String.valueOf(i));
            }
        }
    }

    @Test
    void closesHttp10ConnectionsUnlessAskedToKeepThem() {
        try (RunningServer server = start()) {
            try (RawClient client = server.connect()) {
                RawClient.Response response = client.send("GET /hello HTTP/1.0\r\n\r\n").read();
                assertThat(response.status()).isEqualTo(200);
                assertThat(response.header("Connection")).isEqualTo("close");
                assertThat(client.closedByServer()).isTrue();
            }
            try (RawClient client = server.connect()) {
                String keepAlive = "GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\n";
                assertThat(client.send(keepAlive).read().header("Connection")).isEqualTo("keep-alive");
                assertThat(client.send(keepAlive).read().text()).isEqualTo("Hello, World!");
            }
        }
    }

    @Test
    void readsChunkedRequestBodiesWithTrailers() {
        try (RunningServer server = start(); RawClient client = server.connect()) {
            client.send("POST /digest HTTP/1.1\r\n" + HOST + "Transfer-Encoding: chunked\r\n\r\n"
                    + "5\r\nHello\r\n8;ext=1\r\n, World!\r\n0\r\n\r\n");
            assertThat(client.read().text()).isEqualTo("13 " + sha256("Hello, World!".getBytes()));
            client.send("POST /trailers HTTP/1.1\r\n" + HOST + "Transfer-Encoding: chunked\r\n\r\n"
                    + "3\r\nabc\r\n0\r\nX-Checksum: 42\r\n\r\n");
            assertThat(client.read().text()).isEqualTo("42");
        }
    }

    @Test
    void sendsResponseTrailersInTheLastChunk() {
        try (RunningServer server = start(); RawClient client = server.connect()) {
            RawClient.Response response = client.send("GET /send-trailers?7 HTTP/1.1\r\n" + HOST + "\r\n").read();
            assertThat(response.header("Transfer-Encoding")).isEqualTo("chunked");
            assertThat(response.text()).isEqualTo("with trailers");
            assertThat(response.trailers()).containsEntry("x-checksum", "42").containsEntry("x-count", "7");
            RawClient.Response old = client.send("GET /send-trailers?7 HTTP/1.0\r\n\r\n").read();
            assertThat(old.text()).isEqualTo("with trailers");
            assertThat(old.trailers()).isEmpty();
        }
    }

    @Test
    void chunksResponsesWhoseLengthIsUnknown() {
        try (RunningServer server = start(); RawClient client = server.connect()) {
            RawClient.Response response = client.send("GET /stream?100000 HTTP/1.1\r\n" + HOST + "\r\n").read();
            assertThat(response.header("Transfer-Encoding")).isEqualTo("chunked");
            assertPattern(response.body(), 100_000);
            assertThat(client.send("GET /hello HTTP/1.1\r\n" + HOST + "\r\n").read().status()).isEqualTo(200);
        }
    }

    @Test
    void sendsContinueOnlyWhenTheHandlerReadsTheBody() {
        try (RunningServer server = start(); RawClient client = server.connect()) {
            client.send("POST /digest HTTP/1.1\r\n" + HOST + "Expect: 100-continue\r\nContent-Length: 5\r\n\r\n");
            assertThat(client.read().status()).isEqualTo(100);
            client.send("Hello");
            assertThat(client.read().text()).isEqualTo("5 " + sha256("Hello".getBytes()));
        }
        try (RunningServer server = start(); RawClient client = server.connect()) {
            RawClient.Response response = client.send("POST /ignore-body HTTP/1.1\r\n" + HOST
                    + "Expect: 100-continue\r\nContent-Length: 5\r\n\r\n").read();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.header("Connection")).isEqualTo("close");
        }
    }

    @Test
    void rejectsADeclaredBodyOverTheLimitBeforeReadingIt() {
        try (RunningServer server = RunningServer.start(combination, new ContractHandler(),
                builder -> builder.limits(HttpLimits.DEFAULT.withMaxRequestBodySize(10)));
                RawClient client = server.connect()) {
            RawClient.Response response = client.send("POST /digest HTTP/1.1\r\n" + HOST
                    + "Expect: 100-continue\r\nContent-Length: 100\r\n\r\n").read();
            assertThat(response.status()).isEqualTo(413);
            assertThat(response.header("Connection")).isEqualTo("close");
            assertThat(client.closedByServer()).isTrue();
        }
    }

    @Test
    void streamsLargeBodiesBothWays() throws Exception {
        int size = 24 * 1024 * 1024;
        byte[] upload = new byte[size];
        for (int i = 0; i < size; i++) {
            upload[i] = ContractHandler.patternByte(i);
        }
        try (RunningServer server = start(); RawClient client = server.connect()) {
            client.send("POST /digest HTTP/1.1\r\n" + HOST + "Content-Length: " + size + "\r\n\r\n").send(upload);
            assertThat(client.read().text()).isEqualTo(size + " " + sha256(upload));
            RawClient.Response download = client.send("GET /stream?" + size + " HTTP/1.1\r\n" + HOST + "\r\n").read();
            assertPattern(download.body(), size);
            assertThat(server.stats().bufferHits()).isPositive();
        }
    }

    @Test
    void servesAClientThatSendsOneByteAtATime() {
        try (RunningServer server = start(); RawClient client = server.connect()) {
            for (byte b : ("POST /echo HTTP/1.1\r\n" + HOST + "Content-Length: 3\r\n\r\nabc").getBytes()) {
                client.send(new byte[] {b});
                RunningServer.sleep(1);
            }
            assertThat(client.read().text()).isEqualTo("abc");
        }
    }

    @Test
    void answersAClientThatHalfClosedAfterItsRequest() {
        try (RunningServer server = start(); RawClient client = server.connect()) {
            client.send("GET /hello HTTP/1.1\r\n" + HOST + "\r\n").shutdownOutput();
            assertThat(client.read().text()).isEqualTo("Hello, World!");
            assertThat(client.closedByServer()).isTrue();
        }
    }

    @Test
    void waitsForAFreshConnectionThatIsSilentAtFirst() {
        try (RunningServer server = start(); RawClient client = server.connect()) {
            assertThat(client.silentFor(1500)).isTrue();
            assertThat(client.send("GET /hello HTTP/1.1\r\n" + HOST + "\r\n").read().status()).isEqualTo(200);
        }
    }

    @Test
    void leaksNothingWhenTheClientDisconnectsMidRequest() {
        try (RunningServer server = start()) {
            try (RawClient client = server.connect()) {
                client.send("POST /digest HTTP/1.1\r\n" + HOST + "Content-Length: 100000\r\n\r\n0123456789");
                RunningServer.sleep(100);
            }
            try (RawClient client = server.connect()) {
                client.send("GET /hel");
            }
            server.assertSettled();
            try (RawClient client = server.connect()) {
                assertThat(client.send("GET /hello HTTP/1.1\r\n" + HOST + "\r\n").read().status()).isEqualTo(200);
            }
        }
    }

    @Test
    void leaksNothingWhenTheClientDisconnectsMidResponse() throws IOException {
        try (RunningServer server = start()) {
            try (RawClient client = server.connect()) {
                client.send("GET /stream?200000000 HTTP/1.1\r\n" + HOST + "\r\n");
                client.input().readNBytes(100_000);
            }
            server.assertSettled();
        }
    }

    @Test
    void answers500WhenTheHandlerFailsBeforeCommitting() {
        try (RunningServer server = start(); RawClient client = server.connect()) {
            RawClient.Response response = client.send("GET /fail-before HTTP/1.1\r\n" + HOST + "\r\n").read();
            assertThat(response.status()).isEqualTo(500);
            assertThat(response.header("Connection")).isEqualTo("close");
            assertThat(client.closedByServer()).isTrue();
        }
    }

    @Test
    void abortsTheConnectionWhenTheHandlerFailsAfterCommitting() {
        try (RunningServer server = start(); RawClient client = server.connect()) {
            client.send("GET /fail-after HTTP/1.1\r\n" + HOST + "\r\n");
            assertThatThrownBy(client::read).isInstanceOf(UncheckedIOException.class);
        }
    }

    @Test
    void answersHeadAndNoContentWithoutABody() {
        try (RunningServer server = start(); RawClient client = server.connect()) {
            RawClient.Response head = client.send("HEAD /hello HTTP/1.1\r\n" + HOST + "\r\n").read(true);
            assertThat(head.status()).isEqualTo(200);
            assertThat(head.header("Content-Length")).isEqualTo("13");
            RawClient.Response noContent = client.send("GET /no-content HTTP/1.1\r\n" + HOST + "\r\n").read();
            assertThat(noContent.status()).isEqualTo(204);
            assertThat(noContent.header("Content-Length")).isNull();
            assertThat(client.send("GET /hello HTTP/1.1\r\n" + HOST + "\r\n").read().text()).isEqualTo("Hello, World!");
        }
    }

    @Test
    void neverAnswersARequestSmuggledBehindARejectedOne() {
        try (RunningServer server = start(); RawClient client = server.connect()) {
            client.send("POST /echo HTTP/1.1\r\n" + HOST + "Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "0\r\n\r\nGET /hello HTTP/1.1\r\n" + HOST + "\r\n");
            RawClient.Response response = client.read();
            assertThat(response.status()).isEqualTo(400);
            assertThat(response.header("Connection")).isEqualTo("close");
            assertThat(client.closedByServer()).isTrue();
        }
    }

    @Test
    void answersMalformedChunkedBodiesWith400AndCloses() {
        try (RunningServer server = start(); RawClient client = server.connect()) {
            client.send("POST /digest HTTP/1.1\r\n" + HOST + "Transfer-Encoding: chunked\r\n\r\n"
                    + "5\r\nHello\r\nzz\r\n");
            assertThat(client.read().status()).isEqualTo(400);
            assertThat(client.closedByServer()).isTrue();
        }
    }

    @Test
    void answersTheStatusOfARejectedBodyEvenWhenTheHandlerSwallowsTheFailure() {
        AtomicReference<IOException> seen = new AtomicReference<>();
        try (RunningServer server = RunningServer.start(combination, (request, response) -> {
            try {
                request.body().readAllBytes();
            } catch (IOException e) {
                seen.set(e);
            }
            response.body().write("swallowed".getBytes(StandardCharsets.US_ASCII));
        }); RawClient client = server.connect()) {
            client.send("POST /upload HTTP/1.1\r\n" + HOST + "Transfer-Encoding: chunked\r\n\r\n"
                    + "5\r\nHello\r\nzz\r\n");
            assertThat(client.read().status()).isEqualTo(400);
            assertThat(client.closedByServer()).isTrue();
        }
        assertThat(seen.get()).isInstanceOfSatisfying(RequestBodyException.class,
                rejected -> assertThat(rejected.status()).isEqualTo(400));
    }

    @Test
    void enforcesHeaderAndRequestLineLimits() {
        try (RunningServer server = start()) {
            try (RawClient client = server.connect()) {
                String big = "X-Big: " + "a".repeat(9000) + "\r\n";
                assertThat(client.send("GET /hello HTTP/1.1\r\n" + HOST + big + "\r\n").read().status())
                        .isEqualTo(431);
                assertThat(client.closedByServer()).isTrue();
            }
            try (RawClient client = server.connect()) {
                String target = "/hello?" + "q".repeat(9000);
                assertThat(client.send("GET " + target + " HTTP/1.1\r\n" + HOST + "\r\n").read().status())
                        .isEqualTo(414);
            }
            try (RawClient client = server.connect()) {
                assertThat(client.send("GET /hello HTTP/1.1\r\n\r\n").read().status()).isEqualTo(400);
            }
        }
    }

    @Test
    void answers408WhenTheHeadDoesNotArriveInTime() {
        try (RunningServer server = RunningServer.start(combination, new ContractHandler(),
                builder -> builder.timeouts(Timeouts.DEFAULT.withRequestHead(Duration.ofMillis(300))));
                RawClient client = server.connect()) {
            client.send("GET /hello HTTP/1.1\r\n");
            RawClient.Response response = client.read();
            assertThat(response.status()).isEqualTo(408);
            assertThat(client.closedByServer()).isTrue();
        }
    }

    @Test
    void closesConnectionsIdleBeyondTheIdleTimeout() {
        try (RunningServer server = RunningServer.start(combination, new ContractHandler(),
                builder -> builder.timeouts(Timeouts.DEFAULT.withIdle(Duration.ofMillis(300))));
                RawClient client = server.connect()) {
            assertThat(client.send("GET /hello HTTP/1.1\r\n" + HOST + "\r\n").read().status()).isEqualTo(200);
            assertThat(client.closedByServer()).isTrue();
        }
    }

    @Test
    void answers408WhenTheBodyStopsArriving() {
        try (RunningServer server = RunningServer.start(combination, new ContractHandler(),
                builder -> builder.timeouts(Timeouts.DEFAULT.withBodyRead(Duration.ofMillis(300))));
                RawClient client = server.connect()) {
            client.send("POST /digest HTTP/1.1\r\n" + HOST + "Content-Length: 10\r\n\r\n12345");
            RawClient.Response response = client.read();
            assertThat(response.status()).isEqualTo(408);
            assertThat(client.closedByServer()).isTrue();
        }
    }

    @Test
    void abortsAResponseToAClientThatStopsReading() throws IOException {
        try (RunningServer server = RunningServer.start(combination, new ContractHandler(),
                builder -> builder.timeouts(Timeouts.DEFAULT.withWrite(Duration.ofMillis(500))))) {
            try (RawClient client = server.connect()) {
                client.socket().setReceiveBufferSize(4096);
                client.send("GET /stream?500000000 HTTP/1.1\r\n" + HOST + "\r\n");
                // Until the response starts, the connection may not even be accepted: "none open" proves nothing.
                assertThat(client.readHead().status()).isEqualTo(200);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
                while (server.stats().connectionsOpen() != 0 && System.nanoTime() < deadline) {
                    RunningServer.sleep(50);
                }
                assertThat(server.stats().connectionsOpen()).as("the stalled connection was closed").isZero();
            }
            server.assertSettled();
        }
    }

    @Test
    void drainsUnreadBodiesAndClosesWhenTheyAreTooLarge() {
        try (RunningServer server = RunningServer.start(combination, new ContractHandler(),
                builder -> builder.limits(HttpLimits.DEFAULT.withMaxDrainSize(1000)));
                RawClient client = server.connect()) {
            client.send("POST /ignore-body HTTP/1.1\r\n" + HOST + "Content-Length: 100\r\n\r\n" + "x".repeat(100));
            assertThat(client.read().text()).isEqualTo("ignored");
            assertThat(client.send("GET /hello HTTP/1.1\r\n" + HOST + "\r\n").read().status()).isEqualTo(200);
            client.send("POST /ignore-body HTTP/1.1\r\n" + HOST + "Content-Length: 100000\r\n\r\n" + "x".repeat(5000));
            assertThat(client.read().text()).isEqualTo("ignored");
            assertThat(client.closedByServer()).isTrue();
        }
    }

    @Test
    void closesAfterMaxKeepAliveRequests() {
        try (RunningServer server = RunningServer.start(combination, new ContractHandler(),
                builder -> builder.maxKeepAliveRequests(2));
                RawClient client = server.connect()) {
            assertThat(client.send("GET /hello HTTP/1.1\r\n" + HOST + "\r\n").read().header("Connection")).isNull();
            assertThat(client.send("GET /hello HTTP/1.1\r\n" + HOST + "\r\n").read().header("Connection"))
                    .isEqualTo("close");
            assertThat(client.closedByServer()).isTrue();
        }
    }

    @Test
    void answers503WhenPlatformWorkersAndTheirQueueAreFull() throws Exception {
        assumeTrue(combination.threadType == ThreadType.PLATFORM, "virtual threads are never overloaded");
        try (RunningServer server = RunningServer.start(combination, new ContractHandler(),
                builder -> builder.threadPoolSize(1).workerQueueCapacity(0));
                RawClient busy = server.connect()) {
            busy.send("GET /sleep?1500 HTTP/1.1\r\n" + HOST + "\r\n");
            RunningServer.sleep(300);
            try (RawClient rejected = server.connect()) {
                RawClient.Response response = rejected.send("GET /hello HTTP/1.1\r\n" + HOST + "\r\n").read();
                assertThat(response.status()).isEqualTo(503);
                assertThat(rejected.closedByServer()).isTrue();
            }
            assertThat(busy.read().text()).isEqualTo("slept");
            assertThat(server.stats().connectionsRejected()).isEqualTo(1);
        }
    }

    @Test
    void finishesInFlightRequestsOnGracefulShutdown() throws Exception {
        RunningServer server = start();
        int port = server.port();
        try (RawClient inFlight = server.connect(); RawClient idle = server.connect()) {
            assertThat(idle.send("GET /hello HTTP/1.1\r\n" + HOST + "\r\n").read().status()).isEqualTo(200);
            inFlight.send("GET /sleep?800 HTTP/1.1\r\n" + HOST + "\r\n");
            RunningServer.sleep(200);
            CompletableFuture<ShutdownResult> result = new CompletableFuture<>();
            server.server().shutdownGracefully(result::complete);
            assertThat(idle.closedByServer()).isTrue();
            assertThat(server.port()).isEqualTo(-1);
            assertThatThrownBy(() -> new Socket(InetAddress.getLoopbackAddress(), port).close())
                    .isInstanceOf(ConnectException.class);
            RawClient.Response response = inFlight.read();
            assertThat(response.text()).isEqualTo("slept");
            assertThat(response.header("Connection")).isEqualTo("close");
            assertThat(result.get(10, TimeUnit.SECONDS)).isEqualTo(ShutdownResult.IDLE);
            assertThat(inFlight.closedByServer()).isTrue();
        } finally {
            server.close();
        }
    }

    @Test
    void reportsRequestsActiveWhenStoppedDuringGracefulShutdown() throws Exception {
        RunningServer server = start();
        try (RawClient inFlight = server.connect()) {
            inFlight.send("GET /sleep?5000 HTTP/1.1\r\n" + HOST + "\r\n");
            RunningServer.sleep(200);
            CompletableFuture<ShutdownResult> result = new CompletableFuture<>();
            server.server().shutdownGracefully(result::complete);
            assertThat(result).isNotDone();
            server.server().stop();
            assertThat(result.get(10, TimeUnit.SECONDS)).isEqualTo(ShutdownResult.REQUESTS_ACTIVE);
            assertThat(inFlight.closedByServer()).isTrue();
        }
    }

    @Test
    void stopsImmediatelyAndRestartsIdempotently() {
        RunningServer server = start();
        int port = server.port();
        try (RawClient client = server.connect()) {
            assertThat(client.send("GET /hello HTTP/1.1\r\n" + HOST + "\r\n").read().status()).isEqualTo(200);
            server.server().stop();
            server.server().stop();
            assertThat(server.port()).isEqualTo(-1);
            assertThat(client.closedByServer()).isTrue();
            assertThatThrownBy(() -> new Socket(InetAddress.getLoopbackAddress(), port).close())
                    .isInstanceOf(ConnectException.class);
        }
        server.server().start();
        server.server().start();
        try (RawClient client = server.connect()) {
            assertThat(client.send("GET /hello HTTP/1.1\r\n" + HOST + "\r\n").read().status()).isEqualTo(200);
        } finally {
            server.close();
        }
        CompletableFuture<ShutdownResult> result = new CompletableFuture<>();
        server.server().shutdownGracefully(result::complete);
        assertThat(result).isCompletedWithValue(ShutdownResult.IMMEDIATE);
    }

    @Test
    void servesABurstOf2000ConnectionsOpenedAtOnceWithoutFailure() throws Exception {
        int clients = 2000;
        try (RunningServer server = start(); ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            CountDownLatch go = new CountDownLatch(1);
            AtomicInteger ok = new AtomicInteger();
            List<Future<?>> results = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                results.add(threads.submit(() -> {
                    go.await();
                    try (RawClient client = RawClient.connect(server.port())) {
                        RawClient.Response response = client.send(
                                "GET /hello HTTP/1.1\r\n" + HOST + "Connection: close\r\n\r\n").read();
                        if (response.status() == 200 && response.text().equals("Hello, World!")) {
                            ok.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            go.countDown();
            List<String> failures = new ArrayList<>();
            for (Future<?> result : results) {
                try {
                    result.get(60, TimeUnit.SECONDS);
                } catch (java.util.concurrent.ExecutionException e) {
                    failures.add(String.valueOf(e.getCause()));
                }
            }
            assertThat(failures).isEmpty();
            assertThat(ok.get()).isEqualTo(clients);
        }
    }

    private static void assertPattern(byte[] body, int size) {
        assertThat(body).hasSize(size);
        for (int i = 0; i < size; i++) {
            if (body[i] != ContractHandler.patternByte(i)) {
                throw new AssertionError("byte " + i + " differs");
            }
        }
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
