package io.sprout.engine.contract;

import io.sprout.engine.ExecutionMode;
import io.sprout.engine.Http2Config;
import io.sprout.engine.ServerConfig;
import io.sprout.engine.TimeoutKind;
import io.sprout.engine.Timeouts;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.zip.GZIPInputStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * File regions sent straight from the file to the socket ({@code AsyncExchange.sendFileRegion}) over real sockets in
 * every combination: byte-exact regions followed by the connection's next request, transfers the socket takes in
 * many parts, a client that leaves or stalls mid-region (the file is closed and the exchange ends), {@code HEAD},
 * and the answer {@code sendsFileRegions()} gives where the bytes must pass through the heap (TLS, HTTP/2, an encoded
 * body), where the handler writes them instead. Each server checks on close that no connection, request or buffer
 * is left behind.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(Combination.class)
class FileRegionIT {

    private static final String HOST = "Host: test\r\n";
    private static final String GET_HELLO = "GET /hello HTTP/1.1\r\n" + HOST + "\r\n";
    /** Megabytes, and not a multiple of any buffer size. */
    private static final int FILE_SIZE = 5 * 1024 * 1024 + 123;
    private static final int FROM = 1_234_567;
    private static final int COUNT = 3_000_000;
    /** The smallest send buffer the server allows, and a receive buffer as small: a region takes many transfers. */
    private static final int SMALL_SOCKET_BUFFER = 4096;
    /** The write timeout of the servers that test it: a stalled client is given up on after this wait. */
    private static final Duration SHORT_WRITE_TIMEOUT = Duration.ofSeconds(1);
    /** How often the paced client reads, and how much: far more often than the write timeout, far slower in all. */
    private static final Duration READ_PERIOD = Duration.ofMillis(100);
    private static final int READ_SIZE = 64 * 1024;
    private static final int PACED_COUNT = 24 * READ_SIZE;
    /** Pooled buffers a file response holds while its region is sent: none but what a connection holds anyway. */
    private static final long LEASED_BOUND = 2;

    @Parameter
    Combination combination;

    @TempDir
    Path directory;

    private Path file;
    private byte[] content;

    @BeforeEach
    void writeFile() throws IOException {
        content = new byte[FILE_SIZE];
        new Random(FILE_SIZE).nextBytes(content);
        file = Files.write(directory.resolve("region.bin"), content);
    }

    @Test
    void sendsRegionsByteExactAndServesTheNextRequestOnTheConnection() {
        FileResponses handler = new FileResponses(file);
        try (RunningServer server = RunningServer.start(combination, handler); RawClient client = server.connect()) {
            RawClient.Response middle = client.send(get(FROM, COUNT)).read();
            RawClient.Response whole = client.send(get(0, FILE_SIZE)).read();

            assertThat(middle.status()).isEqualTo(200);
            assertThat(middle.header("Content-Length")).isEqualTo(Integer.toString(COUNT));
            assertThat(middle.body()).isEqualTo(Arrays.copyOfRange(content, FROM, FROM + COUNT));
            assertThat(whole.header("Content-Length")).isEqualTo(Integer.toString(FILE_SIZE));
            assertThat(whole.body()).isEqualTo(content);
            assertThat(client.send(GET_HELLO).read().text()).isEqualTo("Hello, World!");
            assertThat(server.stats().connectionsAccepted()).isEqualTo(1);
        }
        assertThat(handler.answers).as("sendsFileRegions() before commit, in the handler, in the exchange's turn")
                .containsExactly(false, true, true, false, true, true);
        assertThat(handler.openFiles()).isZero();
    }

    @Test
    void resumesAPartialTransferEachTimeTheSocketTakesMore() throws IOException {
        FileResponses handler = new FileResponses(file);
        try (RunningServer server = RunningServer.start(combination, handler,
                builder -> builder.socketSendBuffer(SMALL_SOCKET_BUFFER));
                RawClient client = RawClient.over(smallWindowSocket(server.port()));
                PeakGauge leased = PeakGauge.watch("leased", () -> server.stats().buffersLeased())) {
            client.send(get(FROM, COUNT));
            Await.latch(handler.waitedForTheSocket, "the region waits for the socket to take more");

            RawClient.Response response = readInSmallReads(client);

            assertThat(response.body()).isEqualTo(Arrays.copyOfRange(content, FROM, FROM + COUNT));
            assertThat(Await.future(handler.regionEnd, "the region is sent")).isNull();
            assertThat(client.send(GET_HELLO).read().text()).isEqualTo("Hello, World!");
            assertThat(leased.peak()).as("pooled buffers leased while the region was sent")
                    .isLessThanOrEqualTo(LEASED_BOUND);
        }
        assertThat(handler.openFiles()).isZero();
    }

    @Test
    void closesTheFileAndEndsTheExchangeWhenTheClientLeavesMidTransfer() throws IOException {
        FileResponses handler = new FileResponses(file);
        try (RunningServer server = RunningServer.start(combination, handler,
                builder -> builder.socketSendBuffer(SMALL_SOCKET_BUFFER))) {
            try (RawClient client = RawClient.over(smallWindowSocket(server.port()))) {
                client.send(get(0, FILE_SIZE)).readHead();
                Await.latch(handler.waitedForTheSocket, "the region waits for the socket to take more");
                assertThat(client.input().readNBytes(4096)).hasSize(4096);
            }

            Await.until(() -> handler.openFiles() == 0, "the region's file is closed");
            assertThat(Await.future(handler.ended, "the exchange ends")).isNotNull();
            assertThat(Await.future(handler.regionEnd, "the region ends")).isInstanceOf(IOException.class);
        }
    }

    @Test
    void abortsAStalledTransferAtTheWriteTimeoutAndClosesTheFile() {
        FileResponses handler = new FileResponses(file);
        try (RunningServer server = RunningServer.start(combination, handler, shortWriteTimeout());
                RawClient client = RawClient.over(smallWindowSocket(server.port()))) {
            client.send(get(0, FILE_SIZE));
            Await.latch(handler.waitedForTheSocket, "the region waits for the socket to take more");

            assertThat(Await.future(handler.ended, "the exchange ends")).isInstanceOf(SocketTimeoutException.class);
            Await.until(() -> handler.openFiles() == 0, "the region's file is closed");
            assertThat(server.stats().timeouts(TimeoutKind.WRITE)).isEqualTo(1);
        }
    }

    /** The write timeout bounds each wait for the client to take more, not the whole region. */
    @Test
    void keepsSendingToAClientThatReadsSlowlyForLongerThanTheWriteTimeout() throws Exception {
        FileResponses handler = new FileResponses(file);
        ScheduledExecutorService pace = Executors.newSingleThreadScheduledExecutor();
        try (RunningServer server = RunningServer.start(combination, handler, shortWriteTimeout());
                RawClient client = RawClient.over(smallWindowSocket(server.port()))) {
            client.send(get(FROM, PACED_COUNT)).readHead();
            byte[] received = new byte[PACED_COUNT];
            for (int at = 0; at < PACED_COUNT; at += READ_SIZE) {
                int offset = at;
                pace.schedule(() -> client.input().readNBytes(received, offset, READ_SIZE), READ_PERIOD.toMillis(),
                        TimeUnit.MILLISECONDS).get();
            }

            assertThat(received).isEqualTo(Arrays.copyOfRange(content, FROM, FROM + PACED_COUNT));
            assertThat(Await.future(handler.regionEnd, "the region is sent")).isNull();
            assertThat(client.send(GET_HELLO).read().text()).isEqualTo("Hello, World!");
            assertThat(server.stats().timeouts(TimeoutKind.WRITE)).isZero();
        } finally {
            pace.shutdownNow();
        }
    }

    @Test
    void answersHeadWithTheRegionsLengthAndNoBodyThenTheNextRequest() {
        FileResponses handler = new FileResponses(file);
        try (RunningServer server = RunningServer.start(combination, handler); RawClient client = server.connect()) {
            RawClient.Response head = client.send(request("HEAD", FROM, COUNT)).read(true);

            assertThat(head.status()).isEqualTo(200);
            assertThat(head.header("Content-Length")).isEqualTo(Integer.toString(COUNT));
            assertThat(client.send(GET_HELLO).read().text()).isEqualTo("Hello, World!");
            assertThat(Await.future(handler.regionEnd, "the region is done")).isNull();
        }
        assertThat(handler.answers).as("a response without a body takes any region").endsWith(true);
        assertThat(handler.openFiles()).isZero();
    }

    @Test
    void writesTheRegionThroughTheHeapOverTls() {
        FileResponses handler = new FileResponses(file);
        try (RunningServer server = RunningServer.start(combination, handler, TestTls.https());
                RawClient client = TestTls.connect(server.port())) {
            RawClient.Response response = client.send(get(FROM, COUNT)).read();

            assertThat(response.header("Content-Length")).isEqualTo(Integer.toString(COUNT));
            assertThat(response.body()).isEqualTo(Arrays.copyOfRange(content, FROM, FROM + COUNT));
            assertThat(client.send(GET_HELLO).read().text()).isEqualTo("Hello, World!");
        }
        assertThat(handler.answers).containsExactly(false, false, false);
        assertThat(handler.opened).isEmpty();
    }

    @Test
    void writesTheRegionThroughTheHeapOnAnHttp2Stream() {
        FileResponses handler = new FileResponses(file);
        try (RunningServer server = RunningServer.start(combination, handler,
                builder -> builder.http2(Http2Config.DEFAULT));
                H2Client client = H2Client.connect(server.port())) {
            H2Client.Response response = client.get(1, "/file?" + FROM + "-" + COUNT).response(1);

            assertThat(response.field("content-length")).isEqualTo(Integer.toString(COUNT));
            assertThat(response.body()).isEqualTo(Arrays.copyOfRange(content, FROM, FROM + COUNT));
        }
        assertThat(handler.answers).containsExactly(false, false, false);
        assertThat(handler.opened).isEmpty();
    }

    @Test
    void writesTheRegionThroughTheHeapWhenTheBodyIsEncoded() throws IOException {
        FileResponses handler = new FileResponses(file);
        try (RunningServer server = RunningServer.start(combination, handler); RawClient client = server.connect()) {
            RawClient.Response response = client.send("GET /file?" + FROM + "-" + COUNT + " HTTP/1.1\r\n" + HOST
                    + "X-Gzip: yes\r\n\r\n").read();

            assertThat(response.header("Transfer-Encoding")).isEqualTo("chunked");
            try (InputStream gunzip = new GZIPInputStream(new ByteArrayInputStream(response.body()))) {
                assertThat(gunzip.readAllBytes()).isEqualTo(Arrays.copyOfRange(content, FROM, FROM + COUNT));
            }
        }
        assertThat(handler.answers).containsExactly(false, false, false);
    }

    /**
     * A hybrid worker that had to wait for its client waits in the kernel from then until the handler returns, so no
     * region can go to the loop meanwhile; in nio the socket never leaves non-blocking mode.
     */
    @Test
    void aHybridWorkerThatWaitedForItsClientKeepsItsSocketBlockingUntilItsHandlerReturns() throws IOException {
        FileResponses handler = new FileResponses(file);
        int size = 64 * SMALL_SOCKET_BUFFER;
        try (RunningServer server = RunningServer.start(combination, handler,
                builder -> builder.socketSendBuffer(SMALL_SOCKET_BUFFER));
                RawClient client = RawClient.over(smallWindowSocket(server.port()))) {
            client.send("GET /written-first?" + size + " HTTP/1.1\r\n" + HOST + "\r\n");

            assertThat(readInSmallReads(client).body()).hasSize(size);
            assertThat(client.send(GET_HELLO).read().text()).isEqualTo("Hello, World!");
        }
        assertThat(handler.answers).as("sendsFileRegions() after writes that waited for the client")
                .containsExactly(combination.mode == ExecutionMode.NIO);
    }

    private static UnaryOperator<ServerConfig.Builder> shortWriteTimeout() {
        return builder -> builder.socketSendBuffer(SMALL_SOCKET_BUFFER)
                .timeouts(Timeouts.DEFAULT.withWrite(SHORT_WRITE_TIMEOUT));
    }

    private static String get(int from, int count) {
        return request("GET", from, count);
    }

    private static String request(String method, int from, int count) {
        return method + " /file?" + from + "-" + count + " HTTP/1.1\r\n" + HOST + "\r\n";
    }

    /** A client whose kernel takes few bytes ahead of its reads: the server's transfers stop at every one. */
    private static Socket smallWindowSocket(int port) {
        try {
            Socket socket = new Socket();
            socket.setReceiveBufferSize(SMALL_SOCKET_BUFFER);
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return socket;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The response, its body read a few kilobytes at a time. */
    private static RawClient.Response readInSmallReads(RawClient client) throws IOException {
        RawClient.Response head = client.readHead();
        byte[] body = new byte[Integer.parseInt(head.header("Content-Length"))];
        for (int at = 0; at < body.length; ) {
            int count = client.input().read(body, at, Math.min(SMALL_SOCKET_BUFFER, body.length - at));
            if (count < 0) {
                throw new IOException("The connection closed after " + at + " of " + body.length + " bytes");
            }
            at += count;
        }
        return new RawClient.Response(head.status(), head.headers(), body, head.trailers());
    }
}
