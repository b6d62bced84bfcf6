package io.sprout.boot.web;

import io.micrometer.core.instrument.MeterRegistry;
import io.sprout.boot.mvcapp.MvcTestApplication;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.function.DoubleSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Spring Boot applications with {@code server.http2.enabled}, in every engine combination: h2 by ALPN over TLS from
 * {@code server.ssl.*} and from an SSL bundle, no h2 offered while HTTP/2 is off, Spring MVC over h2c, and the
 * {@code sprout.http2.*} meters moving with what clients do.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("io.sprout.boot.web.Engines#all")
class Http2ApplicationIT {

    private static final List<String> KEY_STORE = List.of("server.ssl.key-store=classpath:tls/localhost.p12",
            "server.ssl.key-store-type=PKCS12", "server.ssl.key-store-password=changeit");

    @Parameter
    Engines engines;

    private ConfigurableApplicationContext context;
    private HttpClient client;

    /** A servlet answering with the protocol the request came by; the rest is Boot's auto-configuration. */
    @SpringBootConfiguration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class ProtocolApplication {

        @Bean
        ServletRegistrationBean<HttpServlet> protocolServlet() {
            return new ServletRegistrationBean<>(new HttpServlet() {
                @Override
                protected void service(HttpServletRequest request, HttpServletResponse response)
                        throws IOException {
                    byte[] body = request.getInputStream().readAllBytes();
                    response.setContentType("text/plain");
                    response.getWriter().print(request.getProtocol() + " " + body.length);
                }
            }, "/protocol");
        }
    }

    @AfterEach
    void close() {
        if (client != null) {
            client.shutdownNow();
        }
        if (context != null) {
            context.close();
        }
    }

    private ConfigurableApplicationContext run(Class<?> application, List<String> properties) {
        List<String> all = new ArrayList<>(List.of("server.port=0", "spring.main.banner-mode=off",
                "spring.main.register-shutdown-hook=false",
                "sprout.server.execution-mode=" + engines.mode().name().toLowerCase(Locale.ROOT),
                "sprout.server.thread-type=" + engines.threads().name().toLowerCase(Locale.ROOT),
                "sprout.server.thread-pool-size=16", "sprout.server.selector-threads=1"));
        all.addAll(properties);
        context = new SpringApplicationBuilder(application).web(WebApplicationType.SERVLET)
                .properties(all.toArray(String[]::new)).run();
        return context;
    }

    private static List<String> with(List<String> properties, String... more) {
        List<String> all = new ArrayList<>(properties);
        all.addAll(List.of(more));
        return all;
    }

    private int port() {
        return ((WebServerApplicationContext) context).getWebServer().getPort();
    }

    private HttpResponse<String> send(String scheme, String path) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(URI.create(scheme + "://localhost:" + port() + path))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpClient tlsClient() {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).sslContext(TestTls.client())
                .connectTimeout(Duration.ofSeconds(10)).build();
    }

    /** A TLS socket offering only {@code protocols} by ALPN, handshaken. */
    private SSLSocket alpn(String... protocols) throws IOException {
        SSLSocket socket = (SSLSocket) TestTls.client().getSocketFactory()
                .createSocket(InetAddress.getLoopbackAddress(), port());
        socket.setSoTimeout(20_000);
        SSLParameters parameters = socket.getSSLParameters();
        parameters.setApplicationProtocols(protocols);
        socket.setSSLParameters(parameters);
        socket.startHandshake();
        return socket;
    }

    // --- h2 over TLS ---

    @Test
    void servesH2ByAlpnWithServerSslProperties() throws Exception {
        run(ProtocolApplication.class, with(KEY_STORE, "server.http2.enabled=true"));
        client = tlsClient();

        HttpResponse<String> response = send("https", "/protocol");

        assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(response.body()).isEqualTo("HTTP/2.0 0");
        try (SSLSocket socket = alpn("h2")) {
            assertThat(socket.getApplicationProtocol()).isEqualTo("h2");
        }
        try (SSLSocket socket = alpn("http/1.1")) {
            assertThat(socket.getApplicationProtocol()).as("HTTP/1.1 still served").isEqualTo("http/1.1");
        }
    }

    @Test
    void servesH2ByAlpnWithAnSslBundle() throws Exception {
        run(ProtocolApplication.class, List.of("server.http2.enabled=true", "server.ssl.bundle=web",
                "spring.ssl.bundle.jks.web.keystore.location=classpath:tls/localhost.p12",
                "spring.ssl.bundle.jks.web.keystore.type=PKCS12",
                "spring.ssl.bundle.jks.web.keystore.password=changeit"));
        client = tlsClient();

        HttpResponse<String> response = send("https", "/protocol");

        assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(response.body()).isEqualTo("HTTP/2.0 0");
    }

    /**
     * HTTP/2 off (the default): ALPN does not offer h2, so the JDK client falls back to HTTP/1.1 and a client that
     * offers only h2 gets {@code no_application_protocol} (RFC 7301 §3.2) rather than a protocol it did not ask for.
     */
    @Test
    void offersNoH2ByAlpnWhileHttp2IsOff() throws Exception {
        run(ProtocolApplication.class, KEY_STORE);
        client = tlsClient();

        HttpResponse<String> response = send("https", "/protocol");

        assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
        assertThat(response.body()).isEqualTo("HTTP/1.1 0");
        assertThatExceptionOfType(SSLException.class).isThrownBy(() -> alpn("h2").close())
                .withMessageContaining("no_application_protocol");
    }

    // --- Spring MVC over h2c ---

    /**
     * The JDK client cannot use prior knowledge: its first request upgrades the connection ({@code Upgrade: h2c}),
     * and the requests after it share that connection as concurrent streams: JSON, a validated POST body, and
     * asynchronous handlers (DeferredResult, Callable).
     */
    @Test
    void servesSpringMvcOverH2cToConcurrentStreams() throws Exception {
        run(MvcTestApplication.class, List.of("server.http2.enabled=true"));
        client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).connectTimeout(Duration.ofSeconds(10))
                .build();

        HttpResponse<String> upgraded = send("http", "/api/greeting?name=h2c");
        assertThat(upgraded.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(upgraded.body()).isEqualTo("{\"message\":\"Hello, h2c!\"}");

        List<CompletableFuture<HttpResponse<String>>> responses = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            responses.add(sendAsync(request("/api/greeting?name=n" + i).GET()));
            responses.add(sendAsync(request("/api/people").header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"Ada" + i + "\",\"age\":" + i + "}"))));
            responses.add(sendAsync(request("/api/deferred").GET()));
            responses.add(sendAsync(request("/api/callable").GET()));
        }
        for (int i = 0; i < 8; i++) {
            assertResponse(responses.get(4 * i), 200, "{\"message\":\"Hello, n" + i + "!\"}");
            assertResponse(responses.get(4 * i + 1), 201, "{\"name\":\"Ada" + i + "\",\"age\":" + i + "}");
            assertResponse(responses.get(4 * i + 2), 200, "{\"message\":\"deferred\"}");
            assertResponse(responses.get(4 * i + 3), 200, "called");
        }
        SproutWebServer server = (SproutWebServer) ((WebServerApplicationContext) context).getWebServer();
        assertThat(server.stats().connectionsAccepted()).as("every stream on the upgraded connection").isEqualTo(1);
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create("http://localhost:" + port() + path)).timeout(Duration.ofSeconds(30));
    }

    private CompletableFuture<HttpResponse<String>> sendAsync(HttpRequest.Builder request) {
        return client.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void assertResponse(CompletableFuture<HttpResponse<String>> future, int status, String body)
            throws Exception {
        HttpResponse<String> response = future.get();
        assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(response.statusCode()).isEqualTo(status);
        assertThat(response.body()).isEqualTo(body);
    }

    // --- meters ---

    /**
     * A client's RST_STREAM moves {@code sprout.http2.resets{direction=received}}, a frame HTTP/2 forbids (DATA on
     * stream 0) ends the connection with GOAWAY PROTOCOL_ERROR and moves {@code sprout.http2.goaway}, and once the
     * streams are gone {@code sprout.http2.streams} is back at 0.
     */
    @Test
    void http2MetersCountResetsAndGoAways() throws Exception {
        run(ProtocolApplication.class, List.of("server.http2.enabled=true"));
        MeterRegistry registry = context.getBean(MeterRegistry.class);
        assertThat(registry.get("sprout.http2.goaway").functionCounters()).hasSize(14);
        assertThat(registry.get("sprout.http2.resets").tag("direction", "sent").functionCounter().count()).isZero();

        try (RawH2c h2c = new RawH2c(port())) {
            // POST /protocol whose body never comes: the servlet waits in its read until the reset.
            h2c.frame(0x1, 0x4, 1, headerBlock("POST", "/protocol"));
            awaitValue(() -> registry.get("sprout.http2.streams").gauge().value(), 1);
            h2c.frame(0x3, 0, 1, ByteBuffer.allocate(4).putInt(0x8).array());
            awaitValue(() -> registry.get("sprout.http2.resets").tag("direction", "received").functionCounter()
                    .count(), 1);
            awaitValue(() -> registry.get("sprout.http2.streams").gauge().value(), 0);
        }
        try (RawH2c h2c = new RawH2c(port())) {
            h2c.frame(0x0, 0, 0, new byte[] {'x'});
            assertThat(h2c.readGoAwayCode()).isEqualTo(0x1);
        }
        awaitValue(() -> registry.get("sprout.http2.goaway").tag("reason", "PROTOCOL_ERROR").functionCounter()
                .count(), 1);
        assertThat(registry.get("sprout.http2.goaway").tag("reason", "ENHANCE_YOUR_CALM").functionCounter().count())
                .isZero();
    }

    /** A request head in HPACK from the static table only: method, scheme http, path, authority localhost. */
    private static byte[] headerBlock(String method, String path) {
        ByteBuffer block = ByteBuffer.allocate(64);
        block.put((byte) ("POST".equals(method) ? 0x83 : 0x82)).put((byte) 0x86);
        block.put((byte) 0x04).put((byte) path.length()).put(path.getBytes(StandardCharsets.US_ASCII));
        block.put((byte) 0x01).put((byte) 9).put("localhost".getBytes(StandardCharsets.US_ASCII));
        return java.util.Arrays.copyOf(block.array(), block.position());
    }

    private static void awaitValue(DoubleSupplier value, double expected) {
        Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(
                () -> assertThat(value.getAsDouble()).isEqualTo(expected));
    }

    /** An h2c connection by prior knowledge that writes frames as given: what no well-behaved client sends. */
    private static final class RawH2c implements AutoCloseable {

        private final Socket socket;
        private final OutputStream out;

        RawH2c(int port) throws IOException {
            socket = new Socket(InetAddress.getLoopbackAddress(), port);
            socket.setSoTimeout(20_000);
            out = socket.getOutputStream();
            out.write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            frame(0x4, 0, 0, new byte[0]);
        }

        void frame(int type, int flags, int stream, byte[] payload) throws IOException {
            ByteBuffer head = ByteBuffer.allocate(9);
            head.put((byte) (payload.length >>> 16)).put((byte) (payload.length >>> 8)).put((byte) payload.length);
            head.put((byte) type).put((byte) flags).putInt(stream);
            out.write(head.array());
            out.write(payload);
            out.flush();
        }

        /** Reads frames until a GOAWAY and returns its error code. */
        int readGoAwayCode() throws IOException {
            DataInputStream in = new DataInputStream(socket.getInputStream());
            while (true) {
                int length = in.readUnsignedByte() << 16 | in.readUnsignedByte() << 8 | in.readUnsignedByte();
                int type = in.readUnsignedByte();
                in.readUnsignedByte();
                in.readInt();
                byte[] payload = in.readNBytes(length);
                if (type == 0x7) {
                    return ByteBuffer.wrap(payload, 4, 4).getInt();
                }
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
