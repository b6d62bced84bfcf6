package io.sprout.boot.reactive;

import io.sprout.boot.compression.CompressingRequestHandler;
import io.sprout.boot.compression.CompressionPolicy;
import io.sprout.boot.web.TestTls;
import io.sprout.engine.ExecutionMode;
import io.sprout.engine.Http2Config;
import io.sprout.engine.RequestHandler;
import io.sprout.engine.ServerConfig;
import io.sprout.engine.ThreadType;
import io.sprout.engine.TlsConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.core.ResolvableType;
import org.springframework.core.io.FileSystemResource;
import org.springframework.core.io.Resource;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ResourceHttpMessageWriter;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import reactor.core.publisher.Mono;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Files served as WebFlux serves them ({@link ResourceHttpMessageWriter}, which writes a file resource through
 * {@code ZeroCopyHttpOutputMessage}), over real sockets in every engine combination. On plaintext HTTP/1.1 the
 * region goes from the file to the socket: byte-exact, keep-alive after it, nothing of it in the heap however
 * slowly the client reads (the adapter's buffer factory allocates nothing, the engine leases no buffer for it), and
 * the file closed when the client leaves. Over TLS, on HTTP/2 and compressed, it goes through buffers instead, and
 * still arrives whole; {@code HEAD} answers the length without a body.
 */
@ParameterizedClass(name = "{0}/{1}")
@MethodSource("io.sprout.boot.reactive.ReactiveServer#combinations")
class ReactiveFileRegionIT {

    /** Megabytes, not a multiple of any buffer size. */
    private static final int FILE_SIZE = 8 * 1024 * 1024 + 321;
    private static final int LARGE_FILE_SIZE = 64 * 1024 * 1024;
    private static final int RANGE_FROM = 1_000_003;
    private static final int RANGE_COUNT = 3_000_000;
    /** A client whose kernel takes few bytes ahead of its reads, so the server's transfers stop at every one. */
    private static final int SMALL_RECEIVE_BUFFER = 8 * 1024;
    private static final byte[] GET_FILE = "GET /file HTTP/1.1\r\nHost: test\r\n\r\n"
            .getBytes(StandardCharsets.US_ASCII);
    /** Where the slow client stops reading until the test has watched the server for a while. */
    private static final int PAUSE_AT = 8 << 20;
    /** The stand-still watched: long enough for a server that buffered the file to show it. */
    private static final Duration STAND_STILL = Duration.ofMillis(500);
    /** Pooled buffers a connection holds while its file is sent: its input, at most a head not yet taken. */
    private static final long LEASED_BOUND = 2;
    /** How long a closed connection's file may stay open: the server notices the close at its next transfer. */
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(10);
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    /** The longest a request, or a read of its response, may take before the test fails instead of hanging. */
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    @Parameter(0)
    ExecutionMode mode;

    @Parameter(1)
    ThreadType threads;

    @TempDir
    Path directory;

    private final CountingBufferFactory bufferFactory = new CountingBufferFactory();
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(CONNECT_TIMEOUT).build();
    private final ResourceHttpMessageWriter writer = new ResourceHttpMessageWriter();
    private ReactiveServer server;
    private Path file;
    private byte[] content;

    @BeforeEach
    void writeFile() throws IOException {
        content = new byte[FILE_SIZE];
        new Random(FILE_SIZE).nextBytes(content);
        file = Files.write(directory.resolve("served.bin"), content);
    }

    @AfterEach
    void stop() {
        client.close();
        if (server != null) {
            server.close();
        }
    }

    /** Any path: the file as a resource, as a WebFlux handler returning it does (ranges, HEAD and all). */
    private Mono<Void> handle(ServerHttpRequest request, ServerHttpResponse response) {
        return writer.write(Mono.just(new FileSystemResource(file)), ResolvableType.forClass(Resource.class),
                ResolvableType.forClass(Resource.class), MediaType.APPLICATION_OCTET_STREAM, request, response,
                Map.of());
    }

    private void start(UnaryOperator<RequestHandler> around, UnaryOperator<ServerConfig.Builder> more) {
        server = ReactiveServer.start(mode, threads, around.apply(new SproutHttpHandlerAdapter(this::handle,
                bufferFactory)), more);
    }

    private void start() {
        start(UnaryOperator.identity(), UnaryOperator.identity());
    }

    @Test
    void sendsTheFileAndARangeOfItByteExactOnAConnectionThatCarriesTheNextRequest() throws Exception {
        start();

        HttpResponse<byte[]> whole = client.send(get("/file").build(), BodyHandlers.ofByteArray());
        HttpResponse<byte[]> range = client.send(get("/file").header("Range",
                "bytes=" + RANGE_FROM + "-" + (RANGE_FROM + RANGE_COUNT - 1)).build(), BodyHandlers.ofByteArray());
        HttpResponse<byte[]> again = client.send(get("/file").build(), BodyHandlers.ofByteArray());

        assertThat(whole.statusCode()).isEqualTo(200);
        assertThat(whole.headers().firstValue("Content-Length")).hasValue(Integer.toString(FILE_SIZE));
        assertThat(whole.body()).isEqualTo(content);
        assertThat(range.statusCode()).isEqualTo(206);
        assertThat(range.headers().firstValue("Content-Length")).hasValue(Integer.toString(RANGE_COUNT));
        assertThat(range.body()).isEqualTo(Arrays.copyOfRange(content, RANGE_FROM, RANGE_FROM + RANGE_COUNT));
        assertThat(again.body()).isEqualTo(content);
        assertThat(server.stats().connectionsAccepted()).as("one connection carried all three").isEqualTo(1);
        assertThat(bufferFactory.allocatedBytes()).as("bytes of the files read into buffers").isZero();
        assertThat(descriptorsOpenOn(file)).isZero();
    }

    @Test
    void holdsNothingOfALargeFileWhileItsClientReadsSlowly() throws Exception {
        startWithALargeFile();

        try (Socket socket = askForTheFileInASmallWindow(); InputStream in = socket.getInputStream()) {
            byte[] received = new byte[LARGE_FILE_SIZE];
            assertThat(in.readNBytes(received, 0, PAUSE_AT)).isEqualTo(PAUSE_AT);
            await("the server at a stand-still holds none of the file while the client reads nothing")
                    .during(STAND_STILL).atMost(STAND_STILL.multipliedBy(4)).until(() ->
                            bufferFactory.allocatedBytes() == 0 && server.stats().buffersLeased() <= LEASED_BOUND
                            && server.stats().requestsActive() == 1);
            for (int at = PAUSE_AT; at < LARGE_FILE_SIZE; ) {
                int count = in.read(received, at, Math.min(SMALL_RECEIVE_BUFFER, LARGE_FILE_SIZE - at));
                assertThat(count).as("bytes read at " + at).isPositive();
                at += count;
            }

            assertThat(received).isEqualTo(content);
        }
        assertThat(bufferFactory.allocatedBytes()).isZero();
    }

    @Test
    void closesTheFileAndEndsTheExchangeWhenTheClientLeavesMidTransfer() throws Exception {
        startWithALargeFile();

        try (Socket socket = askForTheFileInASmallWindow(); InputStream in = socket.getInputStream()) {
            assertThat(in.readNBytes(4096)).hasSize(4096);
            assertThat(descriptorsOpenOn(file)).as("the file is open while it is sent").isEqualTo(1);
        }

        await("the file is closed and the exchange ended").atMost(CLOSE_WAIT)
                .until(() -> descriptorsOpenOn(file) == 0 && server.stats().requestsActive() == 0);
    }

    @Test
    void writesTheFileThroughBuffersOverTls() throws Exception {
        start(UnaryOperator.identity(), builder -> builder.tls(TlsConfig.of(TestTls.server())));
        try (HttpClient tlsClient = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .sslContext(TestTls.client()).connectTimeout(CONNECT_TIMEOUT).build()) {
            URI uri = URI.create("https://localhost:" + server.port() + "/file");

            HttpRequest request = HttpRequest.newBuilder(uri).timeout(REQUEST_TIMEOUT).build();
            HttpResponse<byte[]> first = tlsClient.send(request, BodyHandlers.ofByteArray());
            HttpResponse<byte[]> second = tlsClient.send(request, BodyHandlers.ofByteArray());

            assertThat(first.headers().firstValue("Content-Length")).hasValue(Integer.toString(FILE_SIZE));
            assertThat(first.body()).isEqualTo(content);
            assertThat(second.body()).isEqualTo(content);
        }
        assertThat(bufferFactory.allocatedBytes()).as("bytes read into buffers")
                .isGreaterThanOrEqualTo(2L * FILE_SIZE);
        assertThat(descriptorsOpenOn(file)).isZero();
    }

    @Test
    void writesTheFileThroughBuffersOnHttp2() throws Exception {
        start(UnaryOperator.identity(), builder -> builder.http2(Http2Config.DEFAULT));
        try (HttpClient h2Client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2)
                .connectTimeout(CONNECT_TIMEOUT).build()) {
            // The first request upgrades the connection (h2c); the second is a stream of its own from the start.
            HttpResponse<byte[]> upgrade = h2Client.send(get("/file").build(), BodyHandlers.ofByteArray());
            HttpResponse<byte[]> stream = h2Client.send(get("/file").build(), BodyHandlers.ofByteArray());

            assertThat(upgrade.body()).isEqualTo(content);
            assertThat(stream.version()).isEqualTo(HttpClient.Version.HTTP_2);
            assertThat(stream.body()).isEqualTo(content);
        }
        assertThat(bufferFactory.allocatedBytes()).isGreaterThanOrEqualTo(2L * FILE_SIZE);
    }

    @Test
    void writesACompressedFileThroughBuffers() throws Exception {
        CompressionPolicy gzipEverything = new CompressionPolicy(0, List.of("application/octet-stream"), List.of());
        start(adapter -> new CompressingRequestHandler(gzipEverything, adapter), UnaryOperator.identity());

        HttpResponse<byte[]> response = client.send(get("/file").header("Accept-Encoding", "gzip").build(),
                BodyHandlers.ofByteArray());

        assertThat(response.headers().firstValue("Content-Encoding")).hasValue("gzip");
        try (InputStream gunzip = new GZIPInputStream(new ByteArrayInputStream(response.body()))) {
            assertThat(gunzip.readAllBytes()).isEqualTo(content);
        }
        assertThat(descriptorsOpenOn(file)).isZero();
    }

    @Test
    void answersHeadWithTheFilesLengthAndNoBodyThenTheNextRequest() throws Exception {
        start();

        HttpResponse<byte[]> head = client.send(get("/file").method("HEAD", BodyPublishers.noBody()).build(),
                BodyHandlers.ofByteArray());
        HttpResponse<byte[]> next = client.send(get("/file").build(), BodyHandlers.ofByteArray());

        assertThat(head.statusCode()).isEqualTo(200);
        assertThat(head.headers().firstValue("Content-Length")).hasValue(Integer.toString(FILE_SIZE));
        assertThat(head.body()).isEmpty();
        assertThat(next.body()).isEqualTo(content);
        assertThat(server.stats().connectionsAccepted()).isEqualTo(1);
    }

    private HttpRequest.Builder get(String path) {
        return HttpRequest.newBuilder(server.uri(path)).timeout(REQUEST_TIMEOUT);
    }

    /** A server with small socket buffers, serving a file larger than any buffer on the way. */
    private void startWithALargeFile() throws IOException {
        content = new byte[LARGE_FILE_SIZE];
        new Random(LARGE_FILE_SIZE).nextBytes(content);
        Files.write(file, content);
        start(UnaryOperator.identity(), builder -> builder.socketSendBuffer(SMALL_RECEIVE_BUFFER));
    }

    /** A client whose kernel takes few bytes ahead of its reads, having asked for the file and read the head. */
    private Socket askForTheFileInASmallWindow() throws IOException {
        Socket socket = new Socket();
        socket.setReceiveBufferSize(SMALL_RECEIVE_BUFFER);
        socket.setSoTimeout((int) REQUEST_TIMEOUT.toMillis());
        socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.port()));
        socket.getOutputStream().write(GET_FILE);
        skipHead(socket.getInputStream());
        return socket;
    }

    /** Reads up to the blank line that ends a response head. */
    private static void skipHead(InputStream in) throws IOException {
        int matched = 0;
        byte[] end = {'\r', '\n', '\r', '\n'};
        while (matched < end.length) {
            int next = in.read();
            if (next < 0) {
                throw new IOException("The connection closed in the response head");
            }
            matched = next == end[matched] ? matched + 1 : next == '\r' ? 1 : 0;
        }
    }

    /** Descriptors of this process open on {@code target}, as Linux lists them in {@code /proc/self/fd}. */
    private static long descriptorsOpenOn(Path target) throws IOException {
        Path real = target.toRealPath();
        try (Stream<Path> descriptors = Files.list(Path.of("/proc/self/fd"))) {
            return descriptors.filter(descriptor -> {
                try {
                    return Files.readSymbolicLink(descriptor).equals(real);
                } catch (IOException closedMeanwhile) {
                    return false;
                }
            }).count();
        }
    }
}
