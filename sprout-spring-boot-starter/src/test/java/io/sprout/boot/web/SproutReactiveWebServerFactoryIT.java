package io.sprout.boot.web;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import io.sprout.engine.ServerStats;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.awaitility.Awaitility;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.StringRequestContent;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.client.transport.HttpClientTransportOverHTTP2;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.Compression;
import org.springframework.boot.web.server.GracefulShutdownResult;
import org.springframework.boot.web.server.Http2;
import org.springframework.boot.web.server.Shutdown;
import org.springframework.boot.web.server.Ssl;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.reactive.ConfigurableReactiveWebServerFactory;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.util.unit.DataSize;
import org.springframework.web.reactive.function.BodyInserters;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.WebClientRequestException;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.netty.NettyPipeline;
import reactor.netty.http.Http11SslContextSpec;
import reactor.netty.http.client.HttpClient;
import reactor.netty.tcp.SslProvider.GenericSslContextSpec;
import reactor.test.StepVerifier;

import javax.net.ssl.KeyManagerFactory;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Spring Boot 4.1's reactive web server contract, {@code AbstractReactiveWebServerFactoryTests}, ported as it is onto
 * {@link SproutReactiveWebServerFactory} and run in every execution mode and thread type over real sockets: the same
 * test names, the same clients (Reactor Netty's {@code HttpClient} under {@code WebClient}, Jetty's
 * {@code HTTP2Client}, {@code StepVerifier}) and the same assertions. What is adapted, and why:
 * <ul>
 * <li>the factory is Sprout's, small, in this test's engine combination ({@link #getFactory()});</li>
 * <li>the key material is the starter's {@code tls/} set (see its {@code generate.sh}; every password is
 * {@code changeit}) instead of Boot's {@code test.jks}: key store {@code localhost.jks} with alias
 * {@code localhost}, the test CA ({@code truststore.p12}, {@code ca.pem}) as the trust material, which Boot's
 * self-signed {@code test.jks} was its own, and {@code client.p12} as the client's key;</li>
 * <li>{@link BlockingHandler#awaitQueue()} waits for the request to arrive with Awaitility, where Boot's sleeps in a
 * loop;</li>
 * <li>the two started-line tests expect {@code Sprout} where Boot's regular expressions name Jetty, Netty or
 * Tomcat;</li>
 * <li>Boot's debugging {@code System.out.println("Stopped")} is left out.</li>
 * </ul>
 * Then what Sprout adds: the logged started line names the engine, and the graceful-shutdown test all three of
 * Boot's reactive servers carry in their own subclasses. Every test ends, as every Sprout server test does, by
 * checking that no pooled buffer is still leased once the server has stopped.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("io.sprout.boot.web.Engines#all")
@ExtendWith(OutputCaptureExtension.class)
// A guard, not a measure: a stop or a handshake that hangs fails its test instead of stalling the build.
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class SproutReactiveWebServerFactoryIT {

    /** How long a call may take before the test fails instead of hanging: a guard, not a speed goal. */
    private static final Duration NO_HANG = Duration.ofSeconds(30);

    @Parameter
    Engines engines;

    protected WebServer webServer;

    /** Boot's tear-down, and then the leak check every Sprout server test ends with. */
    @AfterEach
    void tearDown() {
        if (this.webServer != null) {
            ServerStats stats = ((SproutWebServer) this.webServer).stats();
            this.webServer.stop();
            this.webServer.destroy();
            if (stats != null) {
                assertThat(stats.buffersLeased()).as("buffers still leased after stop").isZero();
            }
        }
    }

    /** Adapted: Boot's subclasses make their server's factory; this is Sprout's, small, in this combination. */
    protected ConfigurableReactiveWebServerFactory getFactory() {
        SproutReactiveWebServerFactory factory = new SproutReactiveWebServerFactory(0);
        factory.setServerConfig(engines.config());
        return factory;
    }

    /** As Boot's Netty, Jetty and Tomcat subclasses do: the line in the shape all of Boot's servers share. */
    protected String startedLogMessage() {
        return ((SproutWebServer) this.webServer).getStartedLogMessage();
    }

    /** Sprout's equivalent of Tomcat's additional connector and Jetty's additional {@code ServerConnector}. */
    protected void addConnector(int port, ConfigurableReactiveWebServerFactory factory) {
        ((SproutReactiveWebServerFactory) factory).addAdditionalPorts(port);
    }

    // --- Boot's AbstractReactiveWebServerFactoryTests, as they are ---

    @Test
    void specificPort() throws Exception {
        ConfigurableReactiveWebServerFactory factory = getFactory();
        int specificPort = doWithRetry(() -> {
            factory.setPort(0);
            this.webServer = factory.getWebServer(new EchoHandler());
            this.webServer.start();
            return this.webServer.getPort();
        });
        Mono<String> result = getWebClient(this.webServer.getPort()).build()
                .post()
                .uri("/test")
                .contentType(MediaType.TEXT_PLAIN)
                .body(BodyInserters.fromValue("Hello World"))
                .retrieve()
                .bodyToMono(String.class);
        assertThat(result.block(NO_HANG)).isEqualTo("Hello World");
        assertThat(this.webServer.getPort()).isEqualTo(specificPort);
    }

    @Test
    protected void restartAfterStop() throws Exception {
        ConfigurableReactiveWebServerFactory factory = getFactory();
        this.webServer = factory.getWebServer(new EchoHandler());
        this.webServer.start();
        int port = this.webServer.getPort();
        assertThat(getResponse(port, "/test")).isEqualTo("Hello World");
        this.webServer.stop();
        assertThatException().isThrownBy(() -> getResponse(port, "/test"));
        this.webServer.start();
        assertThat(getResponse(this.webServer.getPort(), "/test")).isEqualTo("Hello World");
    }

    private String getResponse(int port, String uri) {
        WebClient webClient = getWebClient(port).build();
        Mono<String> result = webClient.post()
                .uri(uri)
                .contentType(MediaType.TEXT_PLAIN)
                .body(BodyInserters.fromValue("Hello World"))
                .retrieve()
                .bodyToMono(String.class);
        return result.block(NO_HANG);
    }

    @Test
    void portIsMinusOneWhenConnectionIsClosed() {
        ConfigurableReactiveWebServerFactory factory = getFactory();
        this.webServer = factory.getWebServer(new EchoHandler());
        this.webServer.start();
        assertThat(this.webServer.getPort()).isGreaterThan(0);
        this.webServer.destroy();
        assertThat(this.webServer.getPort()).isEqualTo(-1);
    }

    @Test
    void basicSslFromClassPath() {
        testBasicSslWithKeyStore(TestTls.classpath("localhost.jks"), TestTls.PASSWORD);
    }

    @Test
    void basicSslFromFileSystem() {
        testBasicSslWithKeyStore(TestTls.file("localhost.jks"), TestTls.PASSWORD);
    }

    protected final void testBasicSslWithKeyStore(String keyStore, String keyPassword) {
        ConfigurableReactiveWebServerFactory factory = getFactory();
        Ssl ssl = new Ssl();
        ssl.setKeyStore(keyStore);
        ssl.setKeyPassword(keyPassword);
        ssl.setKeyStorePassword(TestTls.PASSWORD);
        factory.setSsl(ssl);
        this.webServer = factory.getWebServer(new EchoHandler());
        this.webServer.start();
        ReactorClientHttpConnector connector = buildTrustAllSslConnector();
        WebClient client = WebClient.builder()
                .baseUrl("https://localhost:" + this.webServer.getPort())
                .clientConnector(connector)
                .build();
        Mono<String> result = client.post()
                .uri("/test")
                .contentType(MediaType.TEXT_PLAIN)
                .body(BodyInserters.fromValue("Hello World"))
                .retrieve()
                .bodyToMono(String.class);
        assertThat(result.block(NO_HANG)).isEqualTo("Hello World");
    }

    @Test
    void sslWithValidAlias() {
        String keyStore = TestTls.classpath("localhost.jks");
        String keyPassword = TestTls.PASSWORD;
        ConfigurableReactiveWebServerFactory factory = getFactory();
        Ssl ssl = new Ssl();
        ssl.setKeyStore(keyStore);
        ssl.setKeyStorePassword(TestTls.PASSWORD);
        ssl.setKeyPassword(keyPassword);
        ssl.setKeyAlias("localhost");
        factory.setSsl(ssl);
        this.webServer = factory.getWebServer(new EchoHandler());
        this.webServer.start();
        ReactorClientHttpConnector connector = buildTrustAllSslConnector();
        WebClient client = WebClient.builder()
                .baseUrl("https://localhost:" + this.webServer.getPort())
                .clientConnector(connector)
                .build();

        Mono<String> result = client.post()
                .uri("/test")
                .contentType(MediaType.TEXT_PLAIN)
                .body(BodyInserters.fromValue("Hello World"))
                .retrieve()
                .bodyToMono(String.class);

        StepVerifier.create(result).expectNext("Hello World").expectComplete().verify(NO_HANG);
    }

    @Test
    void sslWithInvalidAliasFailsDuringStartup() {
        String keyStore = TestTls.classpath("localhost.jks");
        String keyPassword = TestTls.PASSWORD;
        ConfigurableReactiveWebServerFactory factory = getFactory();
        Ssl ssl = new Ssl();
        ssl.setKeyStore(keyStore);
        ssl.setKeyPassword(keyPassword);
        ssl.setKeyAlias("test-alias-404");
        factory.setSsl(ssl);
        assertThatSslWithInvalidAliasCallFails(() -> factory.getWebServer(new EchoHandler()).start());
    }

    protected void assertThatSslWithInvalidAliasCallFails(ThrowingCallable call) {
        assertThatException().isThrownBy(call)
                .withStackTraceContaining("Keystore does not contain alias 'test-alias-404'");
    }

    protected ReactorClientHttpConnector buildTrustAllSslConnector() {
        GenericSslContextSpec<?> sslContextSpec = Http11SslContextSpec.forClient()
                .configure((builder) -> builder.sslProvider(SslProvider.JDK)
                    .trustManager(InsecureTrustManagerFactory.INSTANCE));
        HttpClient client = HttpClient.create().wiretap(true).secure((spec) -> spec.sslContext(sslContextSpec));
        return new ReactorClientHttpConnector(client);
    }

    @Test
    void sslWantsClientAuthenticationSucceedsWithClientCertificate() throws Exception {
        Ssl ssl = new Ssl();
        ssl.setClientAuth(Ssl.ClientAuth.WANT);
        ssl.setKeyStore(TestTls.classpath("localhost.jks"));
        ssl.setKeyPassword(TestTls.PASSWORD);
        ssl.setKeyStorePassword(TestTls.PASSWORD);
        trustTheTestCa(ssl);
        testClientAuthSuccess(ssl, buildTrustAllSslWithClientKeyConnector("tls/client.p12", TestTls.PASSWORD));
    }

    @Test
    void sslWantsClientAuthenticationSucceedsWithoutClientCertificate() {
        Ssl ssl = new Ssl();
        ssl.setClientAuth(Ssl.ClientAuth.WANT);
        ssl.setKeyStore(TestTls.classpath("localhost.jks"));
        ssl.setKeyPassword(TestTls.PASSWORD);
        trustTheTestCa(ssl);
        ssl.setKeyStorePassword(TestTls.PASSWORD);
        testClientAuthSuccess(ssl, buildTrustAllSslConnector());
    }

    /**
     * Adapted: Boot's key store holds a self-signed certificate and is its own trust store, read without a password;
     * the client certificate here is signed by the test CA, whose PKCS#12 store keeps its certificate encrypted.
     */
    private static void trustTheTestCa(Ssl ssl) {
        ssl.setTrustStore(TestTls.classpath("truststore.p12"));
        ssl.setTrustStorePassword(TestTls.PASSWORD);
    }

    protected ReactorClientHttpConnector buildTrustAllSslWithClientKeyConnector(String keyStore,
            String keyStorePassword) throws Exception {
        KeyStore clientKeyStore = KeyStore.getInstance(KeyStore.getDefaultType());
        try (InputStream stream = new ClassPathResource(keyStore).getInputStream()) {
            clientKeyStore.load(stream, TestTls.PASSWORD.toCharArray());
        }
        KeyManagerFactory clientKeyManagerFactory = KeyManagerFactory
                .getInstance(KeyManagerFactory.getDefaultAlgorithm());
        clientKeyManagerFactory.init(clientKeyStore, keyStorePassword.toCharArray());

        GenericSslContextSpec<?> sslContextSpec = Http11SslContextSpec.forClient()
                .configure((builder) -> builder.sslProvider(SslProvider.JDK)
                    .trustManager(InsecureTrustManagerFactory.INSTANCE)
                    .keyManager(clientKeyManagerFactory));
        HttpClient client = HttpClient.create().wiretap(true).secure((spec) -> spec.sslContext(sslContextSpec));
        return new ReactorClientHttpConnector(client);
    }

    protected void testClientAuthSuccess(Ssl sslConfiguration, ReactorClientHttpConnector clientConnector) {
        ConfigurableReactiveWebServerFactory factory = getFactory();
        factory.setSsl(sslConfiguration);
        this.webServer = factory.getWebServer(new EchoHandler());
        this.webServer.start();
        WebClient client = WebClient.builder()
                .baseUrl("https://localhost:" + this.webServer.getPort())
                .clientConnector(clientConnector)
                .build();
        Mono<String> result = client.post()
                .uri("/test")
                .contentType(MediaType.TEXT_PLAIN)
                .body(BodyInserters.fromValue("Hello World"))
                .retrieve()
                .bodyToMono(String.class);
        assertThat(result.block(NO_HANG)).isEqualTo("Hello World");
    }

    @Test
    void sslNeedsClientAuthenticationSucceedsWithClientCertificate() throws Exception {
        Ssl ssl = new Ssl();
        ssl.setClientAuth(Ssl.ClientAuth.NEED);
        ssl.setKeyStore(TestTls.classpath("localhost.jks"));
        ssl.setKeyStorePassword(TestTls.PASSWORD);
        ssl.setKeyPassword(TestTls.PASSWORD);
        trustTheTestCa(ssl);
        testClientAuthSuccess(ssl, buildTrustAllSslWithClientKeyConnector("tls/client.p12", TestTls.PASSWORD));
    }

    @Test
    void sslNeedsClientAuthenticationFailsWithoutClientCertificate() {
        Ssl ssl = new Ssl();
        ssl.setClientAuth(Ssl.ClientAuth.NEED);
        ssl.setKeyStore(TestTls.classpath("localhost.jks"));
        ssl.setKeyStorePassword(TestTls.PASSWORD);
        ssl.setKeyPassword(TestTls.PASSWORD);
        trustTheTestCa(ssl);
        testClientAuthFailure(ssl, buildTrustAllSslConnector());
    }

    @Test
    void sslWithPemCertificates() throws Exception {
        Ssl ssl = new Ssl();
        ssl.setClientAuth(Ssl.ClientAuth.NEED);
        ssl.setCertificate(TestTls.classpath("localhost-cert.pem"));
        ssl.setCertificatePrivateKey(TestTls.classpath("localhost-key.pem"));
        ssl.setTrustCertificate(TestTls.classpath("ca.pem"));
        testClientAuthSuccess(ssl, buildTrustAllSslWithClientKeyConnector("tls/client.p12", TestTls.PASSWORD));
    }

    protected void testClientAuthFailure(Ssl sslConfiguration, ReactorClientHttpConnector clientConnector) {
        ConfigurableReactiveWebServerFactory factory = getFactory();
        factory.setSsl(sslConfiguration);
        this.webServer = factory.getWebServer(new EchoHandler());
        this.webServer.start();
        WebClient client = WebClient.builder()
                .baseUrl("https://localhost:" + this.webServer.getPort())
                .clientConnector(clientConnector)
                .build();
        Mono<String> result = client.post()
                .uri("/test")
                .contentType(MediaType.TEXT_PLAIN)
                .body(BodyInserters.fromValue("Hello World"))
                .retrieve()
                .bodyToMono(String.class);
        StepVerifier.create(result).expectError(WebClientRequestException.class).verify(Duration.ofSeconds(10));
    }

    protected WebClient.Builder getWebClient(int port) {
        return getWebClient(HttpClient.create().wiretap(true), port);
    }

    protected WebClient.Builder getWebClient(HttpClient client, int port) {
        InetSocketAddress address = new InetSocketAddress(port);
        String baseUrl = "http://" + address.getHostString() + ":" + address.getPort();
        return WebClient.builder().clientConnector(new ReactorClientHttpConnector(client)).baseUrl(baseUrl);
    }

    @Test
    protected void compressionOfResponseToGetRequest() {
        WebClient client = prepareCompressionTest();
        ResponseEntity<Void> response = client.get().retrieve().toBodilessEntity().block(NO_HANG);
        assertResponseIsCompressed(response);
    }

    @Test
    protected void compressionOfResponseToPostRequest() {
        WebClient client = prepareCompressionTest();
        ResponseEntity<Void> response = client.post().retrieve().toBodilessEntity().block(NO_HANG);
        assertResponseIsCompressed(response);
    }

    @Test
    void noCompressionForSmallResponse() {
        Compression compression = new Compression();
        compression.setEnabled(true);
        compression.setMinResponseSize(DataSize.ofBytes(3001));
        WebClient client = prepareCompressionTest(compression);
        ResponseEntity<Void> response = client.get().retrieve().toBodilessEntity().block(NO_HANG);
        assertResponseIsNotCompressed(response);
    }

    @Test
    void noCompressionForMimeType() {
        Compression compression = new Compression();
        compression.setEnabled(true);
        compression.setMimeTypes(new String[] { "application/json" });
        WebClient client = prepareCompressionTest(compression);
        ResponseEntity<Void> response = client.get().retrieve().toBodilessEntity().block(NO_HANG);
        assertResponseIsNotCompressed(response);
    }

    @Test
    protected void noCompressionForUserAgent() {
        Compression compression = new Compression();
        compression.setEnabled(true);
        compression.setExcludedUserAgents(new String[] { "testUserAgent" });
        WebClient client = prepareCompressionTest(compression);
        ResponseEntity<Void> response = client.get()
                .header("User-Agent", "testUserAgent")
                .retrieve()
                .toBodilessEntity()
                .block(NO_HANG);
        assertResponseIsNotCompressed(response);
    }

    @Test
    void noCompressionForResponseWithInvalidContentType() {
        Compression compression = new Compression();
        compression.setEnabled(true);
        compression.setMimeTypes(new String[] { "application/json" });
        WebClient client = prepareCompressionTest(compression, "test~plain");
        ResponseEntity<Void> response = client.get().retrieve().toBodilessEntity().block(NO_HANG);
        assertResponseIsNotCompressed(response);
    }

    @Test
    void whenSslIsEnabledAndNoKeyStoreIsConfiguredThenServerFailsToStart() {
        assertThatIllegalStateException().isThrownBy(() -> testBasicSslWithKeyStore(null, null))
                .withMessageContaining("SSL is enabled but no trust material is configured");
    }

    @Test
    void whenThereAreNoInFlightRequestsShutDownGracefullyReturnsTrueBeforePeriodElapses() throws Exception {
        ConfigurableReactiveWebServerFactory factory = getFactory();
        factory.setShutdown(Shutdown.GRACEFUL);
        this.webServer = factory.getWebServer(new EchoHandler());
        this.webServer.start();
        AtomicReference<GracefulShutdownResult> result = new AtomicReference<>();
        this.webServer.shutDownGracefully(result::set);
        Awaitility.await().atMost(NO_HANG).until(() -> GracefulShutdownResult.IDLE == result.get());
    }

    @Test
    void whenARequestRemainsInFlightThenShutDownGracefullyDoesNotInvokeCallbackUntilTheRequestCompletes()
            throws Exception {
        InFlight inFlight = requestHeldInFlight(Shutdown.GRACEFUL);
        BlockingHandler blockingHandler = inFlight.handler();
        AtomicReference<ResponseEntity<Void>> responseReference = inFlight.response();
        CountDownLatch responseLatch = inFlight.answered();
        AtomicReference<GracefulShutdownResult> result = new AtomicReference<>();
        this.webServer.shutDownGracefully(result::set);
        assertThat(responseReference.get()).isNull();
        blockingHandler.completeOne();
        assertThat(responseLatch.await(5, TimeUnit.SECONDS)).isTrue();
        Awaitility.await().atMost(NO_HANG).until(() -> GracefulShutdownResult.IDLE == result.get());
    }

    @Test
    void givenAnInflightRequestWhenTheServerIsStoppedThenGracefulShutdownCallbackIsCalledWithRequestsActive()
            throws Exception {
        InFlight inFlight = requestHeldInFlight(Shutdown.GRACEFUL);
        BlockingHandler blockingHandler = inFlight.handler();
        AtomicReference<ResponseEntity<Void>> responseReference = inFlight.response();
        AtomicReference<GracefulShutdownResult> result = new AtomicReference<>();
        this.webServer.shutDownGracefully(result::set);
        assertThat(responseReference.get()).isNull();
        try {
            this.webServer.stop();
        } catch (Exception ex) {
            // As in Boot's test: what is under test is the callback, whether or not stop() objects to the request.
        }
        Awaitility.await()
                .atMost(Duration.ofSeconds(5))
                .until(() -> GracefulShutdownResult.REQUESTS_ACTIVE == result.get());
        blockingHandler.completeOne();
    }

    @Test
    void whenARequestIsActiveAfterGracefulShutdownEndsThenStopWillComplete() throws InterruptedException {
        InFlight inFlight = requestHeldInFlight(Shutdown.GRACEFUL);
        BlockingHandler blockingHandler = inFlight.handler();
        AtomicReference<GracefulShutdownResult> result = new AtomicReference<>();
        this.webServer.shutDownGracefully(result::set);
        this.webServer.stop();
        Awaitility.await()
                .atMost(NO_HANG)
                .until(() -> GracefulShutdownResult.REQUESTS_ACTIVE == result.get());
        blockingHandler.completeOne();
    }

    @Test
    void whenARequestIsActiveThenStopWillComplete() throws InterruptedException {
        InFlight inFlight = requestHeldInFlight(Shutdown.IMMEDIATE);
        BlockingHandler blockingHandler = inFlight.handler();
        try {
            this.webServer.stop();
        } catch (Exception ex) {
            // As in Boot's test: the contract is that stop() returns (the class's timeout fails a hang).
        }
        blockingHandler.completeOne();
    }

    /**
     * The set-up Boot's in-flight tests share: a server whose handler holds each request until told, and one request
     * held there, its response (when it comes) collected.
     */
    private InFlight requestHeldInFlight(Shutdown shutdown) throws InterruptedException {
        ConfigurableReactiveWebServerFactory factory = getFactory();
        factory.setShutdown(shutdown);
        BlockingHandler blockingHandler = new BlockingHandler();
        this.webServer = factory.getWebServer(blockingHandler);
        this.webServer.start();
        Mono<ResponseEntity<Void>> request = getWebClient(this.webServer.getPort()).build()
                .get()
                .retrieve()
                .toBodilessEntity();
        AtomicReference<ResponseEntity<Void>> responseReference = new AtomicReference<>();
        CountDownLatch responseLatch = new CountDownLatch(1);
        request.subscribe((response) -> {
            responseReference.set(response);
            responseLatch.countDown();
        });
        blockingHandler.awaitQueue();
        return new InFlight(blockingHandler, responseReference, responseLatch);
    }

    private record InFlight(BlockingHandler handler, AtomicReference<ResponseEntity<Void>> response,
            CountDownLatch answered) {
    }

    @Test
    protected void whenHttp2IsEnabledAndSslIsDisabledThenH2cCanBeUsed() throws Exception {
        ConfigurableReactiveWebServerFactory factory = getFactory();
        Http2 http2 = new Http2();
        http2.setEnabled(true);
        factory.setHttp2(http2);
        this.webServer = factory.getWebServer(new EchoHandler());
        this.webServer.start();

        try (org.eclipse.jetty.client.HttpClient client = new org.eclipse.jetty.client.HttpClient(
                new HttpClientTransportOverHTTP2(new HTTP2Client()))) {
            client.start();
            ContentResponse response = client.POST("http://localhost:" + this.webServer.getPort())
                    .body(new StringRequestContent("text/plain", "Hello World"))
                    .send();
            assertThat(response.getStatus()).isEqualTo(HttpStatus.OK.value());
            assertThat(response.getContentAsString()).isEqualTo("Hello World");
        }
    }

    @Test
    protected void whenHttp2IsEnabledAndSslIsDisabledThenHttp11CanStillBeUsed() {
        ConfigurableReactiveWebServerFactory factory = getFactory();
        Http2 http2 = new Http2();
        http2.setEnabled(true);
        factory.setHttp2(http2);
        this.webServer = factory.getWebServer(new EchoHandler());
        this.webServer.start();
        Mono<String> result = getWebClient(this.webServer.getPort()).build()
                .post()
                .uri("/test")
                .contentType(MediaType.TEXT_PLAIN)
                .body(BodyInserters.fromValue("Hello World"))
                .retrieve()
                .bodyToMono(String.class);
        assertThat(result.block(NO_HANG)).isEqualTo("Hello World");
    }

    @Test
    void startedLogMessageWithSinglePort() {
        ConfigurableReactiveWebServerFactory factory = getFactory();
        this.webServer = factory.getWebServer(new EchoHandler());
        this.webServer.start();
        assertThat(startedLogMessage())
                .matches("Sprout started on port " + this.webServer.getPort() + " \\(http(/1.1)?\\)");
    }

    @Test
    protected void startedLogMessageWithMultiplePorts() {
        ConfigurableReactiveWebServerFactory factory = getFactory();
        addConnector(0, factory);
        this.webServer = factory.getWebServer(new EchoHandler());
        this.webServer.start();
        assertThat(startedLogMessage()).matches("Sprout started on ports " + this.webServer.getPort()
                + " \\(http(/1.1)?\\), [0-9]+ \\(http(/1.1)?\\)");
    }

    // --- Sprout's own, beside Boot's contract ---

    /**
     * The line logged is Boot's started message followed by the engine the server really runs on, whatever the
     * properties asked for.
     */
    @Test
    void logsTheStartedMessageFollowedByTheExecutionModeAndThreads(CapturedOutput output) {
        ConfigurableReactiveWebServerFactory factory = getFactory();
        this.webServer = factory.getWebServer(new EchoHandler());
        this.webServer.start();
        String engine = engines.mode().name().toLowerCase(Locale.ROOT) + ", " + switch (engines.threads()) {
            case PLATFORM -> "platform threads, 16 workers";
            case VIRTUAL -> "virtual threads";
        };
        assertThat(output).contains(startedLogMessage() + " \u2014 " + engine);
    }

    /**
     * Not in Boot's abstract contract but in each of its reactive servers' subclasses (Netty, Jetty, Tomcat), word
     * for word: once a graceful shutdown has begun, new connections are refused (the kept-alive one the client pools
     * must not serve on either).
     */
    @Test
    void whenServerIsShuttingDownGracefullyThenNewConnectionsCannotBeMade() {
        ConfigurableReactiveWebServerFactory factory = getFactory();
        factory.setShutdown(Shutdown.GRACEFUL);
        BlockingHandler blockingHandler = new BlockingHandler();
        this.webServer = factory.getWebServer(blockingHandler);
        this.webServer.start();
        WebClient webClient = getWebClient(this.webServer.getPort()).build();
        this.webServer.shutDownGracefully((result) -> {
        });
        Awaitility.await().atMost(NO_HANG).until(() -> {
            blockingHandler.stopBlocking();
            try {
                webClient.get().retrieve().toBodilessEntity().block();
                return false;
            } catch (RuntimeException ex) {
                return ex.getCause() instanceof ConnectException;
            }
        });
        this.webServer.stop();
    }

    // --- Boot's test handlers and helpers ---

    private <T> T doWithRetry(Callable<T> action) throws Exception {
        Exception lastFailure = null;
        for (int i = 0; i < 10; i++) {
            try {
                return action.call();
            } catch (Exception ex) {
                lastFailure = ex;
            }
        }
        throw new IllegalStateException("Action was not successful in 10 attempts", lastFailure);
    }

    protected WebClient prepareCompressionTest() {
        Compression compression = new Compression();
        compression.setEnabled(true);
        return prepareCompressionTest(compression);
    }

    protected WebClient prepareCompressionTest(Compression compression) {
        return prepareCompressionTest(compression, MediaType.TEXT_PLAIN_VALUE);
    }

    protected WebClient prepareCompressionTest(Compression compression, String responseContentType) {
        ConfigurableReactiveWebServerFactory factory = getFactory();
        factory.setCompression(compression);
        this.webServer = factory.getWebServer(new CharsHandler(3000, responseContentType));
        this.webServer.start();

        HttpClient client = HttpClient.create()
                .wiretap(true)
                .compress(true)
                .doOnConnected((connection) -> connection.channel()
                    .pipeline()
                    .addBefore(NettyPipeline.HttpDecompressor, "CompressionTest", new CompressionDetectionHandler()));
        return getWebClient(client, this.webServer.getPort()).build();
    }

    protected void assertResponseIsCompressed(ResponseEntity<Void> response) {
        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(response.getHeaders().getFirst("X-Test-Compressed")).isEqualTo("true");
    }

    protected void assertResponseIsNotCompressed(ResponseEntity<Void> response) {
        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(response.getHeaders().headerNames()).doesNotContain("X-Test-Compressed");
    }

    protected static class EchoHandler implements HttpHandler {

        public EchoHandler() {
        }

        @Override
        public Mono<Void> handle(ServerHttpRequest request, ServerHttpResponse response) {
            response.setStatusCode(HttpStatus.OK);
            return response.writeWith(request.getBody());
        }

    }

    protected static class BlockingHandler implements HttpHandler {

        private final BlockingQueue<Sinks.Empty<Void>> processors = new ArrayBlockingQueue<>(10);

        private volatile boolean blocking = true;

        public BlockingHandler() {

        }

        @Override
        public Mono<Void> handle(ServerHttpRequest request, ServerHttpResponse response) {
            if (this.blocking) {
                Sinks.Empty<Void> completion = Sinks.empty();
                this.processors.add(completion);
                return completion.asMono().then(Mono.empty());
            }
            return Mono.empty();
        }

        public void completeOne() {
            try {
                Sinks.Empty<Void> processor = this.processors.take();
                processor.tryEmitEmpty();
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }

        /** Adapted: waits for a request to reach the handler with Awaitility, where Boot's sleeps in a loop. */
        public void awaitQueue() {
            Awaitility.await("a request to reach the handler")
                    .atMost(NO_HANG)
                    .until(() -> !this.processors.isEmpty());
        }

        public void stopBlocking() {
            this.blocking = false;
            this.processors.forEach(Sinks.Empty::tryEmitEmpty);
        }

    }

    static class CompressionDetectionHandler extends ChannelInboundHandlerAdapter {

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof HttpResponse response) {
                boolean compressed = response.headers().contains(HttpHeaderNames.CONTENT_ENCODING, "gzip", true);
                if (compressed) {
                    response.headers().set("X-Test-Compressed", "true");
                }
            }
            ctx.fireChannelRead(msg);
        }

    }

    static class CharsHandler implements HttpHandler {

        private static final DefaultDataBufferFactory factory = new DefaultDataBufferFactory();

        private final DataBuffer bytes;

        private final String mediaType;

        CharsHandler(int contentSize, String mediaType) {
            char[] chars = new char[contentSize];
            Arrays.fill(chars, 'F');
            this.bytes = factory.wrap(new String(chars).getBytes(StandardCharsets.UTF_8));
            this.mediaType = mediaType;
        }

        @Override
        public Mono<Void> handle(ServerHttpRequest request, ServerHttpResponse response) {
            response.setStatusCode(HttpStatus.OK);
            response.getHeaders().set(HttpHeaders.CONTENT_TYPE, this.mediaType);
            response.getHeaders().setContentLength(this.bytes.readableByteCount());
            return response.writeWith(Mono.just(this.bytes));
        }

    }

}
