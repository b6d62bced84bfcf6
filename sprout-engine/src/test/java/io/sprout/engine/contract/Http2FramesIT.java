package io.sprout.engine.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sprout.engine.Http2Config;
import io.sprout.engine.RequestHandler;
import io.sprout.engine.ServerConfig;
import io.sprout.engine.ShutdownResult;
import io.sprout.engine.ThreadType;
import io.sprout.engine.TimeoutKind;
import io.sprout.engine.Timeouts;
import io.sprout.engine.http2.ErrorCode;
import io.sprout.engine.http2.Flags;
import io.sprout.engine.http2.FrameType;
import io.sprout.engine.http2.Setting;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * HTTP/2 frame by frame over real sockets in every combination, with {@link H2Client}: prior knowledge next to
 * HTTP/1.1, an h2c upgrade with a body, trailers, graceful shutdown, and each hardening item of {@link Http2Config}
 * attacked as its CVE describes. Each attack asserts the defence (the GOAWAY or RST_STREAM and its code, and what the
 * server did not do), then that a legitimate request on a fresh connection is still served; each server checks on
 * close that no connection, buffer or request is left behind.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(Combination.class)
class Http2FramesIT {

    private static final int MAX_STREAMS = 8;
    private static final int MAX_RESETS = 20;
    private static final int MAX_CONTROL_FRAMES = 50;
    private static final int MAX_EMPTY_FRAMES = 10;
    /** Budgets small enough that every flood ends within a few hundred frames. */
    private static final Http2Config TIGHT = Http2Config.DEFAULT.withMaxConcurrentStreams(MAX_STREAMS)
            .withRateLimits(MAX_RESETS, MAX_CONTROL_FRAMES, MAX_EMPTY_FRAMES, Duration.ofSeconds(10));
    private static final String CALM = ErrorCode.ENHANCE_YOUR_CALM.name();

    @Parameter
    Combination combination;

    private RunningServer start(Http2Config http2) {
        return start(http2, UnaryOperator.identity());
    }

    private RunningServer start(Http2Config http2, UnaryOperator<ServerConfig.Builder> more) {
        return RunningServer.start(combination, new TlsHandler(), builder -> more.apply(builder.http2(http2)));
    }

    // ---- functional ----

    @Test
    void speaksPriorKnowledgeNextToHttp11OnAPlaintextPort() {
        try (RunningServer server = start(TIGHT); H2Client client = H2Client.connect(server.port())) {
            client.get(1, "/hello");
            H2Client.Response hello = client.response(1);
            assertThat(hello.status()).isEqualTo(200);
            assertThat(hello.text()).isEqualTo("Hello, World!");
            assertThat(hello.field("content-length")).isEqualTo("13");
            assertThat(hello.fields()).extracting(Map.Entry::getKey)
                    .doesNotContain("connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade");

            byte[] body = Http2IT.pattern(100_000);
            client.request(3, "POST", "/echo", false, "content-length", "100000").data(3, body, true);
            H2Client.Response echoed = client.response(3);
            assertThat(echoed.status()).isEqualTo(200);
            assertThat(echoed.body()).isEqualTo(body);
            assertThat(client.frames()).filteredOn(f -> f.stream() == 3 && f.type() == FrameType.DATA)
                    .hasSizeGreaterThan(1);

            try (RawClient http11 = server.connect()) {
                RawClient.Response response = http11.send("GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n").read();
                assertThat(response.status()).isEqualTo(200);
                assertThat(response.text()).isEqualTo("Hello, World!");
            }
        }
    }

    @Test
    void agreesH2ByAlpnOverTlsAndServesFrames() {
        try (RunningServer server = start(TIGHT, TestTls.https());
                H2Client client = H2Client.connectTls(server.port())) {
            client.get(1, "/tls");
            H2Client.Response tls = client.response(1);
            assertThat(tls.status()).isEqualTo(200);
            assertThat(tls.text()).contains("secure=true", "scheme=https", "alpn=h2");
        }
    }

    @Test
    void upgradesToH2cWithARequestBodyThatBecomesStreamOne() {
        try (RunningServer server = start(TIGHT); RawClient raw = server.connect()) {
            byte[] body = Http2IT.pattern(30_000);
            raw.send(upgradeHead("/echo", body.length)).send(body);
            assertThat(raw.readHead().status()).isEqualTo(101);
            try (H2Client client = H2Client.upgraded(raw.socket()).start().read()) {
                H2Client.Response echoed = client.response(1);
                assertThat(echoed.status()).isEqualTo(200);
                assertThat(echoed.body()).isEqualTo(body);
                client.get(3, "/hello");
                assertThat(client.response(3).text()).isEqualTo("Hello, World!");
            }
        }
    }

    @Test
    void answersAnUpgradeBodyAboveTheLimitWith413OverHttp11() {
        try (RunningServer server = start(TIGHT); RawClient raw = server.connect()) {
            int tooLarge = TIGHT.maxUpgradeBodySize() + 1;
            RawClient.Response response = raw.send(upgradeHead("/echo", tooLarge)).read();
            assertThat(response.status()).isEqualTo(413);
            assertThat(raw.closedByServer()).isTrue();
        }
    }

    @Test
    void passesRequestTrailersToTheHandler() {
        try (RunningServer server = start(TIGHT); H2Client client = H2Client.connect(server.port())) {
            client.request(1, "POST", "/trailers", false, "te", "trailers")
                    .data(1, "some body".getBytes(StandardCharsets.US_ASCII), false)
                    .headers(1, client.fieldBlock("x-checksum", "c0ffee"), true, true);
            H2Client.Response response = client.response(1);
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.text()).isEqualTo("c0ffee");
        }
    }

    @Test
    void sendsResponseTrailersAfterTheBody() {
        try (RunningServer server = start(TIGHT); H2Client client = H2Client.connect(server.port())) {
            client.request(1, "GET", "/send-trailers?3", true);
            H2Client.Response response = client.response(1);
            assertThat(response.text()).isEqualTo("with trailers");
            assertThat(response.trailers()).contains(Map.entry("x-checksum", "42"), Map.entry("x-count", "3"));
        }
    }

    /** END_STREAM on its own frame after the body was read: a non-blocking reader must see the end, not spin. */
    @Test
    void endsANonBlockingReadWhenEndStreamComesAfterTheLastBytesWereRead() {
        CompletableFuture<NonBlockingEcho> echo = new CompletableFuture<>();
        RequestHandler handler = (request, response) ->
                echo.complete(NonBlockingEcho.completing(Suspended.start(request, response), new TaskLog()).start());
        try (RunningServer server = RunningServer.start(combination, handler, builder -> builder.http2(TIGHT));
                H2Client client = H2Client.connect(server.port())) {
            client.request(1, "POST", "/echo", false).data(1, "abc".getBytes(StandardCharsets.US_ASCII), false);
            // The reader has taken what was there and waits for more: only then does END_STREAM come, alone.
            Await.latch(Await.future(echo, "the echo starts").waitedToRead(), "the reader waits");
            client.data(1, new byte[0], true);
            assertThat(client.response(1).text()).isEqualTo("abc");
        }
    }

    @Test
    void finishesTheInFlightStreamAndRefusesNewOnesOnGracefulShutdown() throws Exception {
        RunningServer server = start(TIGHT);
        try (H2Client client = H2Client.connect(server.port())) {
            client.get(1, "/hello");
            assertThat(client.response(1).status()).isEqualTo(200);
            client.get(3, "/sleep?1500");
            Await.until(() -> server.stats().requestsActive() == 1, "the slow stream runs");
            CompletableFuture<ShutdownResult> result = new CompletableFuture<>();
            server.server().shutdownGracefully(result::complete);

            H2Client.Frame goAway = client.awaitGoAway();
            assertThat(goAway.error()).isEqualTo(ErrorCode.NO_ERROR);
            assertThat(goAway.lastStream()).isEqualTo(3);
            client.get(5, "/hello");
            H2Client.Frame refusal = client.await("an answer to stream 5 or the close",
                    f -> f.stream() == 5 || f.type() == H2Client.CLOSED);
            if (refusal.type() != H2Client.CLOSED) {
                assertThat(refusal.type()).isEqualTo(FrameType.RST_STREAM);
                assertThat(refusal.error()).isEqualTo(ErrorCode.REFUSED_STREAM);
            }
            assertThat(client.response(3).text()).isEqualTo("slept");
            client.awaitClosed();
            assertThat(client.frames()).noneMatch(f -> f.stream() == 5 && f.type() == FrameType.HEADERS);
            assertThat(Await.future(result, "the graceful shutdown ends")).isEqualTo(ShutdownResult.IDLE);
            assertThat(server.stats().http2GoAways()).containsEntry(ErrorCode.NO_ERROR.name(), 1L);
        } finally {
            server.close();
        }
    }

    // ---- hardening ----

    /** Tomcat CVE-2025-53506: the limit holds from the first frame, not once the client has acknowledged it. */
    @Test
    void refusesStreamsBeyondTheLimitBeforeTheClientAcknowledgesSettings() {
        try (RunningServer server = start(TIGHT);
                H2Client client = H2Client.plain(server.port()).ackSettings(false).start().read()) {
            for (int i = 0; i <= MAX_STREAMS; i++) {
                client.get(1 + 2 * i, "/sleep?1000");
            }
            int extra = 1 + 2 * MAX_STREAMS;
            assertThat(client.awaitReset(extra).error()).isEqualTo(ErrorCode.REFUSED_STREAM);
            for (int i = 0; i < MAX_STREAMS; i++) {
                assertThat(client.response(1 + 2 * i).text()).isEqualTo("slept");
            }
            assertThat(client.frames()).noneMatch(f -> f.type() == FrameType.RST_STREAM && f.stream() != extra);
            servesAFreshConnection(server);
        }
    }

    /** CVE-2023-44487: streams opened and reset at once, beyond the budget, end the connection. */
    @Test
    void endsRapidResetWithEnhanceYourCalm() {
        try (RunningServer server = start(TIGHT); H2Client client = H2Client.connect(server.port())) {
            int sent = client.flood(3 * MAX_RESETS,
                    i -> client.get(1 + 2 * i, "/hello").rst(1 + 2 * i, ErrorCode.CANCEL));
            assertCalmed(client, server);
            assertThat(sent).isGreaterThan(MAX_RESETS);
            assertThat(server.stats().http2ResetsReceived()).isBetween(1L, MAX_RESETS + 1L);
            servesAFreshConnection(server);
        }
    }

    /** Rapid Reset costs no handler: a stream reset while its request waits for a worker is dropped unserved. */
    @Test
    void runsNoHandlerForAStreamResetBeforeAWorkerTookIt() {
        assumeTrue(combination.threadType == ThreadType.PLATFORM, "only a fixed pool makes a request wait");
        try (RunningServer server = start(TIGHT, builder -> builder.threadPoolSize(1));
                H2Client client = H2Client.connect(server.port())) {
            client.get(1, "/sleep?1000");
            Await.until(() -> server.stats().requestsActive() == 1, "the only worker is busy");
            client.get(3, "/hello").rst(3, ErrorCode.CANCEL).sync();
            assertThat(client.response(1).text()).isEqualTo("slept");
            Await.until(() -> server.stats().http2StreamsActive() == 0, "the reset stream's turn has come");
            assertThat(server.stats().requestsTotal()).isEqualTo(1);
            assertThat(client.frames()).noneMatch(f -> f.stream() == 3);
        }
    }

    /** A connection runs at most maxConcurrentStreamExecution requests at once; the others wait their turn, in order. */
    @Test
    void runsNoMoreOfAConnectionsRequestsAtOnceThanItsExecutionLimit() {
        try (RunningServer server = start(TIGHT.withMaxConcurrentStreamExecution(1));
                H2Client client = H2Client.connect(server.port())) {
            client.get(1, "/sleep?300").get(3, "/hello");
            assertThat(client.response(3).text()).isEqualTo("Hello, World!");
            assertThat(client.frames()).filteredOn(f -> f.type() == FrameType.HEADERS).extracting(H2Client.Frame::stream)
                    .containsExactly(1, 3);
            try (H2Client other = H2Client.connect(server.port())) {
                // The limit is the connection's own: another connection is not held behind it.
                other.get(1, "/hello");
                assertThat(other.response(1).status()).isEqualTo(200);
            }
        }
    }

    /** CVE-2025-8671: frames that make the server reset streams count against the same budget. */
    @Test
    void endsMadeYouResetWithEnhanceYourCalm() {
        try (RunningServer server = start(TIGHT); H2Client client = H2Client.connect(server.port())) {
            // WINDOW_UPDATE of 0 on an open stream: a stream error the server answers with RST_STREAM.
            client.flood(3 * MAX_RESETS,
                    i -> client.request(1 + 2 * i, "POST", "/echo", false).windowUpdate(1 + 2 * i, 0));
            assertCalmed(client, server);
            assertThat(client.frames()).anyMatch(f -> f.type() == FrameType.RST_STREAM
                    && f.error() == ErrorCode.PROTOCOL_ERROR);
            assertThat(server.stats().http2ResetsReceived()).isZero();
            assertThat(server.stats().http2ResetsSent()).isGreaterThan(MAX_RESETS);
            servesAFreshConnection(server);
        }
    }

    /** CVE-2024-27316: a header block that never ends is not buffered past maxHeaderListSize. */
    @Test
    void endsAHeaderBlockThatGrowsPastTheLimitBeforeItEnds() {
        try (RunningServer server = start(TIGHT); H2Client client = H2Client.connect(server.port())) {
            int limit = TIGHT.maxHeaderListSize();
            client.headers(1, client.block("GET", "/hello"), true, false);
            byte[] fragment = new byte[1024];
            // Just past the limit, then nothing: an unbounded server would wait for END_HEADERS and send nothing.
            for (int sent = 0; sent <= limit; sent += fragment.length) {
                client.continuation(1, fragment, false);
            }
            H2Client.Frame goAway = client.awaitGoAway();
            assertThat(goAway.error()).isEqualTo(ErrorCode.ENHANCE_YOUR_CALM);
            client.awaitClosed();
            assertThat(client.frames()).noneMatch(f -> f.stream() == 1);
            servesAFreshConnection(server);
        }
    }

    /** The CONTINUATION flood's other half (CVE-2023-45288 and kin): empty frames that never end the block. */
    @Test
    void endsAFloodOfEmptyContinuationFrames() {
        try (RunningServer server = start(TIGHT); H2Client client = H2Client.connect(server.port())) {
            client.headers(1, client.block("GET", "/hello"), true, false);
            client.flood(3 * MAX_EMPTY_FRAMES, i -> client.continuation(1, new byte[0], false));
            assertCalmed(client, server);
            servesAFreshConnection(server);
        }
    }

    /** CVE-2019-9512: PINGs beyond the budget end the connection; no more are answered. */
    @Test
    void endsAPingFloodWithEnhanceYourCalm() {
        try (RunningServer server = start(TIGHT); H2Client client = H2Client.connect(server.port())) {
            client.flood(3 * MAX_CONTROL_FRAMES, client::ping);
            assertCalmed(client, server);
            assertThat(client.frames()).filteredOn(f -> f.type() == FrameType.PING).hasSizeLessThanOrEqualTo(
                    MAX_CONTROL_FRAMES);
            servesAFreshConnection(server);
        }
    }

    @Test
    void endsAPingFloodOverTlsWithEnhanceYourCalm() {
        try (RunningServer server = start(TIGHT, TestTls.https());
                H2Client client = H2Client.connectTls(server.port())) {
            client.flood(3 * MAX_CONTROL_FRAMES, client::ping);
            assertCalmed(client, server);
            try (H2Client fresh = H2Client.connectTls(server.port())) {
                fresh.get(1, "/hello");
                assertThat(fresh.response(1).text()).isEqualTo("Hello, World!");
            }
        }
    }

    /** CVE-2019-9515: SETTINGS beyond the budget end the connection; no more are acknowledged. */
    @Test
    void endsASettingsFloodWithEnhanceYourCalm() {
        try (RunningServer server = start(TIGHT); H2Client client = H2Client.connect(server.port())) {
            client.flood(3 * MAX_CONTROL_FRAMES, i -> client.settings(Setting.MAX_FRAME_SIZE, 16_384));
            assertCalmed(client, server);
            assertThat(client.frames()).filteredOn(f -> f.type() == FrameType.SETTINGS && (f.flags() & Flags.ACK) != 0)
                    .hasSizeLessThanOrEqualTo(MAX_CONTROL_FRAMES);
            servesAFreshConnection(server);
        }
    }

    /**
     * CVE-2019-9512 without the rate control (an unlimited budget): a client that floods PINGs and reads none of the
     * answers makes the server stop reading, hold a bounded queue, and end the connection at the write timeout.
     */
    @Test
    void stopsReadingAPingFloodWhoseAnswersAreNotRead() {
        Http2Config unlimited = TIGHT.withRateLimits(MAX_RESETS, Integer.MAX_VALUE, MAX_EMPTY_FRAMES,
                Duration.ofSeconds(10));
        try (RunningServer server = start(unlimited,
                        b -> b.timeouts(Timeouts.DEFAULT.withWrite(Duration.ofSeconds(1))));
                H2Client client = H2Client.plain(server.port(), 16 * 1024).start();
                PeakGauge leased = PeakGauge.watch("leased", () -> server.stats().buffersLeased())) {
            // 64 MiB of PINGs, and as much in answers: a server that read them all would queue them all.
            int bursts = 4000;
            byte[] burst = pingBurst(1000);
            int written = Await.future(
                    CompletableFuture.supplyAsync(() -> client.flood(bursts, i -> client.raw(burst))),
                    "the flood ends");
            assertThat(written).as("bursts of 1000 PINGs written before the server closed").isLessThan(bursts);
            assertThat(server.stats().timeouts(TimeoutKind.WRITE)).isEqualTo(1);
            // The queue pauses reading at 256 KiB of answers: 16 buffers of 16 KiB, plus the reading ones.
            assertThat(leased.peak()).isLessThanOrEqualTo(40);
            servesAFreshConnection(server);
        }
    }

    /** CVE-2019-9518: DATA frames without payload that do not end the stream, beyond the budget. */
    @Test
    void endsAFloodOfEmptyDataFramesWithEnhanceYourCalm() {
        try (RunningServer server = start(TIGHT); H2Client client = H2Client.connect(server.port())) {
            client.request(1, "POST", "/echo", false);
            client.flood(3 * MAX_EMPTY_FRAMES, i -> client.data(1, new byte[0], false));
            assertCalmed(client, server);
            servesAFreshConnection(server);
        }
    }

    /** CVE-2019-9513: PRIORITY frames (which the server ignores) beyond the control frame budget. */
    @Test
    void endsAPriorityFloodWithEnhanceYourCalm() {
        try (RunningServer server = start(TIGHT); H2Client client = H2Client.connect(server.port())) {
            client.flood(3 * MAX_CONTROL_FRAMES, i -> client.priority(1 + 2 * (i % 100), 0));
            assertCalmed(client, server);
            servesAFreshConnection(server);
        }
    }

    /** CVE-2019-9511: a window of 1 byte opened one byte at a time makes one DATA frame per WINDOW_UPDATE. */
    @Test
    void endsADataDribbleWithEnhanceYourCalm() {
        try (RunningServer server = start(TIGHT);
                H2Client client = H2Client.plain(server.port()).start(Setting.INITIAL_WINDOW_SIZE, 1)
                        .windowUpdate(0, H2Client.BIG_WINDOW).read()) {
            client.get(1, "/stream?100000");
            client.flood(3 * MAX_CONTROL_FRAMES, i -> client.windowUpdate(1, 1));
            assertCalmed(client, server);
            int dribbled = client.frames().stream().filter(f -> f.type() == FrameType.DATA)
                    .mapToInt(f -> f.data().length).sum();
            assertThat(dribbled).isLessThanOrEqualTo(MAX_CONTROL_FRAMES + 1);
            servesAFreshConnection(server);
        }
    }

    /** A stream whose window is zero never blocks another stream; it ends at the write timeout. */
    @Test
    void boundsAStreamStalledOnAZeroWindowWhileAnotherCompletes() {
        try (RunningServer server = start(TIGHT, b -> b.timeouts(Timeouts.DEFAULT.withWrite(Duration.ofSeconds(1))));
                H2Client client = H2Client.plain(server.port()).start(Setting.INITIAL_WINDOW_SIZE, 0)
                        .windowUpdate(0, H2Client.BIG_WINDOW).read()) {
            client.get(1, "/stream?100000");
            client.get(3, "/stream?100000").windowUpdate(3, H2Client.BIG_WINDOW);
            H2Client.Response open = client.response(3);
            assertThat(open.body()).hasSize(100_000);
            // The handler's write gave up at the write timeout: its exchange aborted, the stream reset, no DATA sent.
            assertThat(client.awaitReset(1).error()).isEqualTo(ErrorCode.INTERNAL_ERROR);
            assertThat(client.frames()).filteredOn(f -> f.stream() == 1).extracting(H2Client.Frame::type)
                    .containsExactly(FrameType.HEADERS, FrameType.RST_STREAM);
            assertThat(server.stats().timeouts(TimeoutKind.WRITE)).isEqualTo(1);
            client.get(5, "/hello").windowUpdate(5, H2Client.BIG_WINDOW);
            assertThat(client.response(5).text()).isEqualTo("Hello, World!");
        }
    }

    /**
     * A client that never opens its windows holds the worker writing to it; when a request waits for that worker,
     * the pool takes it back after 100 ms of stall: the stalled stream is reset and the request served.
     */
    @Test
    void shedsAWorkerStalledOnAZeroWindowWhenAnotherRequestWaits() {
        assumeTrue(combination.threadType == ThreadType.PLATFORM, "only a fixed pool can be saturated");
        try (RunningServer server = start(TIGHT, builder -> builder.threadPoolSize(1));
                H2Client client = H2Client.plain(server.port()).start(Setting.INITIAL_WINDOW_SIZE, 0)
                        .windowUpdate(0, H2Client.BIG_WINDOW).read()) {
            client.get(1, "/stream?100000");
            client.await("the stalled stream's HEADERS", f -> f.stream() == 1 && f.type() == FrameType.HEADERS);
            try (RawClient http11 = server.connect()) {
                RawClient.Response response = http11.send("GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n").read();
                assertThat(response.text()).isEqualTo("Hello, World!");
            }
            assertThat(client.awaitReset(1).error()).isEqualTo(ErrorCode.ENHANCE_YOUR_CALM);
            assertThat(server.stats().requestsShed()).isEqualTo(1);
            assertThat(server.stats().timeouts(TimeoutKind.WRITE)).isZero();
        }
    }

    /** CVE-2016-6581: one large table entry referenced a thousand times decodes to far more than the limit. */
    @Test
    void answersAnHpackBomb431AndKeepsTheConnection() {
        try (RunningServer server = start(TIGHT); H2Client client = H2Client.connect(server.port())) {
            ByteArrayOutputStream bomb = new ByteArrayOutputStream();
            bomb.writeBytes(client.block("GET", "/hello"));
            bomb.writeBytes(literalWithIndexing("x-bomb", "a".repeat(4000)));
            for (int i = 0; i < 1000; i++) {
                bomb.write(0x80 | 62); // the dynamic table's first entry, 4,038 octets of the list each time
            }
            assertThat(bomb.size()).isLessThan(TIGHT.maxHeaderListSize());
            client.headers(1, bomb.toByteArray(), true, true);
            assertThat(client.response(1).status()).isEqualTo(431);
            client.get(3, "/hello");
            assertThat(client.response(3).text()).isEqualTo("Hello, World!");
            assertThat(client.frames()).noneMatch(f -> f.type() == FrameType.GOAWAY);
        }
    }

    /** CVE-2019-9516: fields with empty names (and empty values) are refused, few or many. */
    @Test
    void refusesHeaderFieldsWithEmptyNamesAndKeepsTheConnection() {
        try (RunningServer server = start(TIGHT); H2Client client = H2Client.connect(server.port())) {
            for (int[] stream : new int[][] {{1, 10}, {3, 1000}}) {
                ByteArrayOutputStream block = new ByteArrayOutputStream();
                block.writeBytes(client.block("GET", "/hello"));
                for (int i = 0; i < stream[1]; i++) {
                    block.writeBytes(new byte[] {0x00, 0x00, 0x00}); // literal, new name of 0 octets, value of 0
                }
                client.headers(stream[0], block.toByteArray(), true, true);
                H2Client.Frame answer = client.await("an answer to stream " + stream[0],
                        f -> f.stream() == stream[0]
                                && (f.type() == FrameType.RST_STREAM || f.type() == FrameType.HEADERS));
                if (answer.type() == FrameType.RST_STREAM) {
                    assertThat(answer.error()).isEqualTo(ErrorCode.PROTOCOL_ERROR);
                } else {
                    assertThat(answer.field(":status")).isEqualTo("431");
                }
            }
            client.get(5, "/hello");
            assertThat(client.response(5).text()).isEqualTo("Hello, World!");
        }
    }

    /** CVE-2019-9517: a handler that does not read holds at most the stream's window; more is a flow-control error. */
    @Test
    void buffersNoMoreThanTheWindowForAHandlerThatDoesNotRead() {
        Http2Config smallWindows = TIGHT.withWindows(65_535, 1024 * 1024);
        try (RunningServer server = start(smallWindows); H2Client client = H2Client.connect(server.port())) {
            client.request(1, "POST", "/sleep?1000", false);
            client.data(1, new byte[65_535], false);
            client.data(1, new byte[1], false);
            assertThat(client.awaitReset(1).error()).isEqualTo(ErrorCode.FLOW_CONTROL_ERROR);
            // The handler wakes to write into a stream the server reset: nothing of it may leave (§5.1).
            Await.until(() -> server.stats().requestsActive() == 0, "the handler ends");
            client.sync();
            assertThat(client.frames()).filteredOn(f -> f.stream() == 1).extracting(H2Client.Frame::type)
                    .containsExactly(FrameType.RST_STREAM);
            client.get(3, "/hello");
            assertThat(client.response(3).text()).isEqualTo("Hello, World!");
        }
    }

    /** A client that leaves while its handler still runs: what the handler writes then holds no buffer. */
    @Test
    void releasesEverythingWhenTheClientLeavesDuringAResponse() {
        try (RunningServer server = start(TIGHT)) {
            try (H2Client client = H2Client.connect(server.port())) {
                client.get(1, "/sleep?300");
                Await.until(() -> server.stats().requestsActive() == 1, "the handler runs");
            }
            Await.until(() -> server.stats().connectionsOpen() == 0, "the server sees the close");
            Await.until(() -> server.stats().requestsActive() == 0, "the handler ends");
            servesAFreshConnection(server);
        }
    }

    // ---- helpers ----

    /** The connection ended with GOAWAY ENHANCE_YOUR_CALM, counted once. */
    private static void assertCalmed(H2Client client, RunningServer server) {
        H2Client.Frame goAway = client.awaitGoAway();
        assertThat(goAway.error()).as("GOAWAY's code in %s", goAway).isEqualTo(ErrorCode.ENHANCE_YOUR_CALM);
        client.awaitClosed();
        assertThat(server.stats().http2GoAways()).containsEntry(CALM, 1L);
    }

    private static void servesAFreshConnection(RunningServer server) {
        try (H2Client fresh = H2Client.connect(server.port())) {
            fresh.get(1, "/hello");
            H2Client.Response response = fresh.response(1);
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.text()).isEqualTo("Hello, World!");
        }
    }

    private static String upgradeHead(String path, int contentLength) {
        // SETTINGS_INITIAL_WINDOW_SIZE = 2^24, so that stream 1's response is not held to 64 KiB.
        byte[] settings = {0, 4, 1, 0, 0, 0};
        return "POST " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade, HTTP2-Settings\r\n"
                + "Upgrade: h2c\r\nHTTP2-Settings: " + Base64.getUrlEncoder().withoutPadding().encodeToString(settings)
                + "\r\nContent-Length: " + contentLength + "\r\n\r\n";
    }

    private static byte[] pingBurst(int count) {
        byte[] burst = new byte[17 * count];
        for (int i = 0; i < count; i++) {
            burst[17 * i + 2] = 8;
            burst[17 * i + 3] = FrameType.PING;
        }
        return burst;
    }

    /** An HPACK literal with incremental indexing and a new name (RFC 7541 §6.2.1), without Huffman coding. */
    private static byte[] literalWithIndexing(String name, String value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0x40);
        string(out, name);
        string(out, value);
        return out.toByteArray();
    }

    private static void string(ByteArrayOutputStream out, String text) {
        int length = text.length();
        if (length < 127) {
            out.write(length);
        } else {
            out.write(127);
            for (length -= 127; length >= 128; length >>>= 7) {
                out.write(length & 0x7F | 0x80);
            }
            out.write(length);
        }
        out.writeBytes(text.getBytes(StandardCharsets.ISO_8859_1));
    }
}
