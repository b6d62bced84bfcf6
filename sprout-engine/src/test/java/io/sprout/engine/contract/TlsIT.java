package io.sprout.engine.contract;

import io.sprout.engine.ClientAuth;
import io.sprout.engine.TlsConfig;
import io.sprout.engine.TlsContexts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.cert.X509Certificate;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * HTTPS over real sockets in every combination: bodies of every framing and size, keep-alive and pipelining, what a
 * request learns about its connection, client certificates, SNI, ALPN, session resumption, reload, and the JDK's
 * and Python's clients. Hostile clients are {@link TlsAbuseIT}'s; the asynchronous exchange, takeover and WebSocket
 * over TLS sit beside their plaintext tests. Each server checks on close that nothing is left behind.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(Combination.class)
class TlsIT {

    private static final String HOST = "Host: localhost\r\n";
    private static final String GET_TLS = "GET /tls HTTP/1.1\r\n" + HOST + "\r\n";

    @Parameter
    Combination combination;

    private final TlsHandler handler = new TlsHandler();

    private RunningServer start(TlsConfig tls) {
        return RunningServer.start(combination, handler, builder -> builder.tls(tls));
    }

    @Test
    void servesRequestsWithBodiesOnAKeepAliveConnection() {
        try (RunningServer server = start(TestTls.config()); RawClient client = TestTls.connect(server.port())) {
            assertThat(server.server().secure()).isTrue();
            for (int i = 0; i < 3; i++) {
                RawClient.Response response = client.send("GET /hello HTTP/1.1\r\n" + HOST + "\r\n").read();
                assertThat(response.status()).isEqualTo(200);
                assertThat(response.text()).isEqualTo("Hello, World!");
            }
            client.send("POST /digest HTTP/1.1\r\n" + HOST + "Content-Length: 5\r\n\r\nHello");
            assertThat(client.read().text()).isEqualTo("5 " + sha256("Hello".getBytes()));
            client.send("POST /digest HTTP/1.1\r\n" + HOST + "Transfer-Encoding: chunked\r\n\r\n"
                    + "5\r\nHello\r\n8;ext=1\r\n, World!\r\n0\r\n\r\n");
            assertThat(client.read().text()).isEqualTo("13 " + sha256("Hello, World!".getBytes()));
            RawClient.Response chunked = client.send("GET /stream?100000 HTTP/1.1\r\n" + HOST + "\r\n").read();
            assertThat(chunked.header("Transfer-Encoding")).isEqualTo("chunked");
            assertPattern(chunked.body(), 100_000);
        }
    }

    @Test
    void streamsEightMegabytesBothWays() {
        int size = 8 * 1024 * 1024;
        byte[] upload = new byte[size];
        for (int i = 0; i < size; i++) {
            upload[i] = ContractHandler.patternByte(i);
        }
        try (RunningServer server = start(TestTls.config()); RawClient client = TestTls.connect(server.port())) {
            client.send("POST /digest HTTP/1.1\r\n" + HOST + "Content-Length: " + size + "\r\n\r\n").send(upload);
            assertThat(client.read().text()).isEqualTo(size + " " + sha256(upload));
            // Both ways at once: the echo writes while it still reads, so the client must read while it sends.
            client.send("POST /echo HTTP/1.1\r\n" + HOST + "Content-Length: " + size + "\r\n\r\n");
            CompletableFuture<RawClient> sent = CompletableFuture.supplyAsync(() -> client.send(upload));
            assertPattern(client.read().body(), size);
            Await.future(sent, "the upload is sent");
            RawClient.Response download = client.send("GET /stream?" + size + " HTTP/1.1\r\n" + HOST + "\r\n").read();
            assertPattern(download.body(), size);
        }
    }

    @Test
    void servesPipelinedRequestsInOrder() {
        try (RunningServer server = start(TestTls.config()); RawClient client = TestTls.connect(server.port())) {
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
    void endsAnHttp10ResponseWithCloseNotify() {
        try (RunningServer server = start(TestTls.config()); RawClient client = TestTls.connect(server.port())) {
            RawClient.Response response = client.send("GET /stream?100000 HTTP/1.0\r\n\r\n").read();
            assertThat(response.header("Connection")).isEqualTo("close");
            assertPattern(response.body(), 100_000);
            assertThat(client.closedByServer()).isTrue();
        }
    }

    @Test
    void tellsTheRequestAboutItsConnection() {
        try (RunningServer server = start(TestTls.config()); RawClient client = TestTls.connect(server.port())) {
            String answer = client.send(GET_TLS).read().text();
            assertThat(TlsHandler.field(answer, "secure")).isEqualTo("true");
            assertThat(TlsHandler.field(answer, "scheme")).isEqualTo("https");
            assertThat(TlsHandler.field(answer, "protocol")).isEqualTo("TLSv1.3");
            assertThat(TlsHandler.field(answer, "cipher")).startsWith("TLS_");
            assertThat(TlsHandler.field(answer, "keySize")).isIn("128", "256");
            assertThat(TlsHandler.field(answer, "alpn")).as("a raw socket offers no protocol").isEmpty();
            assertThat(TlsHandler.field(answer, "serverName")).isEqualTo("localhost");
            assertThat(TlsHandler.field(answer, "peer")).isEmpty();
        }
    }

    @Test
    void agreesHttp11ThroughAlpnWithTheJdkHttpClient() throws Exception {
        try (RunningServer server = start(TestTls.config())) {
            HttpClient client = HttpClient.newBuilder().sslContext(TestTls.client()).build();
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(
                    URI.create("https://localhost:" + server.port() + "/tls")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
            assertThat(TlsHandler.field(response.body(), "alpn")).isEqualTo("http/1.1");
            HttpResponse<String> post = client.send(HttpRequest.newBuilder(
                    URI.create("https://localhost:" + server.port() + "/echo"))
                    .POST(HttpRequest.BodyPublishers.ofString("posted")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(post.body()).isEqualTo("posted");
            client.close();
        }
    }

    @Test
    void failsTheHandshakeOfAClientThatOffersOnlyProtocolsItDoesNotServe() {
        try (RunningServer server = start(TestTls.config());
                SSLSocket socket = TestTls.socket(TestTls.client(), server.port(), "localhost")) {
            SSLParameters parameters = socket.getSSLParameters();
            parameters.setApplicationProtocols(new String[] {"h2"});
            socket.setSSLParameters(parameters);
            assertThatThrownBy(socket::startHandshake).isInstanceOf(SSLException.class)
                    .hasMessageContaining("no_application_protocol");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void servesHttpsUrlConnection() throws Exception {
        try (RunningServer server = start(TestTls.config())) {
            HttpsURLConnection connection = (HttpsURLConnection) URI.create(
                    "https://localhost:" + server.port() + "/tls").toURL().openConnection();
            connection.setSSLSocketFactory(TestTls.client().getSocketFactory());
            assertThat(connection.getResponseCode()).isEqualTo(200);
            try (InputStream body = connection.getInputStream()) {
                String answer = new String(body.readAllBytes(), StandardCharsets.UTF_8);
                assertThat(TlsHandler.field(answer, "scheme")).isEqualTo("https");
            }
            connection.disconnect();
        }
    }

    @Test
    void requiresAClientCertificateWhenTheConfigNeedsOne() throws IOException {
        try (RunningServer server = start(TestTls.needClientCertificates())) {
            try (RawClient client = RawClient.over(TestTls.handshaken(
                    TestTls.socket(TestTls.clientWithCertificate(), server.port(), "localhost")))) {
                assertThat(TlsHandler.field(client.send(GET_TLS).read().text(), "peer"))
                        .isEqualTo("CN=Sprout Test Client|CN=Sprout Test CA");
            }
            try (SSLSocket socket = TestTls.socket(TestTls.client(), server.port(), "localhost")) {
                // TLS 1.3 lets the client finish before the server judges its (missing) certificate.
                assertThatThrownBy(() -> {
                    socket.startHandshake();
                    RawClient.over(socket).send(GET_TLS).read();
                }).isInstanceOfAny(SSLException.class, UncheckedIOException.class);
            }
            assertThat(handler.served()).isEqualTo(1);
        }
    }

    @Test
    void asksForAClientCertificateWhenTheConfigWantsOne() {
        try (RunningServer server = start(TestTls.config().withClientAuth(ClientAuth.WANT))) {
            try (RawClient client = RawClient.over(TestTls.handshaken(
                    TestTls.socket(TestTls.clientWithCertificate(), server.port(), "localhost")))) {
                assertThat(TlsHandler.field(client.send(GET_TLS).read().text(), "peer"))
                        .isEqualTo("CN=Sprout Test Client|CN=Sprout Test CA");
            }
            try (RawClient client = TestTls.connect(server.port())) {
                assertThat(TlsHandler.field(client.send(GET_TLS).read().text(), "peer")).isEmpty();
            }
        }
    }

    @Test
    void choosesTheCertificateByTheServerNameTheClientAsksFor() {
        try (RunningServer server = start(TestTls.withOtherName())) {
            assertThat(certificateFor(server, TestTls.OTHER_NAME)).isEqualTo("CN=other.test");
            assertThat(certificateFor(server, "OTHER.test")).isEqualTo("CN=other.test");
            assertThat(certificateFor(server, "localhost")).isEqualTo("CN=localhost");
            assertThat(certificateFor(server, "unknown.test")).isEqualTo("CN=localhost");
            assertThat(certificateFor(server, null)).isEqualTo("CN=localhost");
        }
    }

    @Test
    void resumesSessionsFromTheJdkSessionCache() {
        SSLContext client = TestTls.client();
        try (RunningServer server = start(TestTls.config())) {
            for (String protocol : new String[] {"TLSv1.3", "TLSv1.2"}) {
                Session first = sessionOf(server, client, protocol);
                Session second = sessionOf(server, client, protocol);
                // A resumed session keeps the creation time of the one it resumes; a full handshake makes a new one.
                assertThat(second.created()).as("creation time of the session resumed with " + protocol)
                        .isEqualTo(first.created());
                if (protocol.equals("TLSv1.2")) {
                    assertThat(second.serverId()).as("the resumed session's id").isEqualTo(first.serverId());
                }
            }
        }
    }

    @Test
    void newConnectionsGetReloadedCertificatesWhileOpenOnesKeepTheirs() {
        AtomicReference<TlsContexts> current = new AtomicReference<>(TlsContexts.of(TestTls.localhost()));
        try (RunningServer server = start(TlsConfig.reloading(current::get))) {
            SSLSocket before = TestTls.handshaken(TestTls.socket(TestTls.client(), server.port(), "localhost"));
            try (RawClient open = RawClient.over(before)) {
                assertThat(subject(before)).isEqualTo("CN=localhost");

                current.set(TlsContexts.of(TestTls.other()));

                assertThat(certificateFor(server, "localhost")).isEqualTo("CN=other.test");
                assertThat(open.send("GET /hello HTTP/1.1\r\n" + HOST + "\r\n").read().status()).isEqualTo(200);
                assertThat(subject(before)).isEqualTo("CN=localhost");
            }
        }
    }

    @Test
    void answersATls13KeyUpdateAndCarriesOn() throws IOException {
        try (RunningServer server = start(TestTls.config())) {
            SSLSocket socket = TestTls.handshaken(TestTls.socket(TestTls.client(), server.port(), "localhost"));
            try (RawClient client = RawClient.over(socket)) {
                assertThat(client.send("GET /hello HTTP/1.1\r\n" + HOST + "\r\n").read().status()).isEqualTo(200);
                // On an established TLS 1.3 connection this sends a KeyUpdate that asks for the server's.
                socket.startHandshake();
                for (int i = 0; i < 3; i++) {
                    assertThat(client.send("GET /hello HTTP/1.1\r\n" + HOST + "\r\n").read().text())
                            .isEqualTo("Hello, World!");
                }
            }
        }
    }

    @Test
    void servesPythonsSslClientAndEndsWithCloseNotify() throws Exception {
        assumeTrue(PythonClient.available(), "python3 with its ssl module");
        try (RunningServer server = start(TestTls.needClientCertificates())) {
            String answer = PythonClient.get(server.port(), "/tls", true);
            assertThat(TlsHandler.field(answer, "python.alpn")).isEqualTo("http/1.1");
            assertThat(TlsHandler.field(answer, "python.version")).isEqualTo("TLSv1.3");
            assertThat(TlsHandler.field(answer, "peer")).startsWith("CN=Sprout Test Client");
            assertThat(TlsHandler.field(answer, "alpn")).isEqualTo("http/1.1");
        }
    }

    private static String certificateFor(RunningServer server, String serverName) {
        SSLSocket socket = TestTls.handshaken(TestTls.socket(TestTls.client(), server.port(), serverName));
        try (RawClient client = RawClient.over(socket)) {
            String answer = client.send("GET /tls HTTP/1.1\r\nHost: x\r\n\r\n").read().text();
            assertThat(TlsHandler.field(answer, "serverName"))
                    .isEqualTo(serverName == null ? "null" : serverName.toLowerCase(java.util.Locale.ROOT));
            return subject(socket);
        }
    }

    /** A session as the client saw it and the server named it. */
    private record Session(long created, String serverId) {
    }

    /** Makes one request on a new connection and returns its session. */
    private static Session sessionOf(RunningServer server, SSLContext client, String protocol) {
        SSLSocket socket = TestTls.handshaken(TestTls.socket(client, server.port(), "localhost", protocol));
        try (RawClient raw = RawClient.over(socket)) {
            // Reading a response also takes in a TLS 1.3 session ticket, which resumption needs.
            String answer = raw.send(GET_TLS).read().text();
            assertThat(TlsHandler.field(answer, "protocol")).isEqualTo(protocol);
            return new Session(socket.getSession().getCreationTime(), TlsHandler.field(answer, "sessionId"));
        }
    }

    private static String subject(SSLSocket socket) {
        try {
            return ((X509Certificate) socket.getSession().getPeerCertificates()[0]).getSubjectX500Principal()
                    .toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void assertPattern(byte[] body, int size) {
        assertThat(body).hasSize(size);
        for (int i = 0; i < size; i++) {
            if (body[i] != ContractHandler.patternByte(i)) {
                throw new AssertionError("byte " + i + " differs");
            }
        }
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
