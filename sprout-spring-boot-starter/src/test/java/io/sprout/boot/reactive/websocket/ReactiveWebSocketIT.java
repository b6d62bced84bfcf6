package io.sprout.boot.reactive.websocket;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpCookie;
import org.springframework.http.ResponseCookie;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.reactive.handler.SimpleUrlHandlerMapping;
import org.springframework.web.reactive.socket.CloseStatus;
import org.springframework.web.reactive.socket.WebSocketHandler;
import org.springframework.web.reactive.socket.WebSocketMessage;
import org.springframework.web.reactive.socket.WebSocketSession;
import org.springframework.web.server.WebFilter;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Boot WebFlux application's WebSocket handlers on Sprout, in every engine combination, configured as a user
 * would: {@code WebSocketHandler} beans in a {@code SimpleUrlHandlerMapping} and nothing else, so the strategy comes
 * from Sprout's auto-configuration. Spring's own WebSocket scenarios (echo, sub-protocol, handshake headers, session
 * closing, cookies), a large payload, and a reader whose demand holds the client back.
 */
@ParameterizedClass(name = "{0}/{1}")
@CsvSource({"nio,platform", "nio,virtual", "hybrid,platform", "hybrid,virtual"})
class ReactiveWebSocketIT {

    private static final Duration PATIENCE = Duration.ofSeconds(30);
    /** How long a server that reads despite no demand is given to show it. */
    private static final Duration STAND_STILL = Duration.ofMillis(500);
    private static final int LARGE = 10 << 20;
    private static final int FLOW_MESSAGE = 65_536;
    /** 64 MiB in all: far more than the kernel buffers between the two ends hold. */
    private static final int FLOW_MESSAGES = 1_024;

    @Parameter(0)
    String mode;

    @Parameter(1)
    String threads;

    private ConfigurableApplicationContext context;
    private int port;
    /** Opens the slow reader's gate: until then it takes its first message and asks for nothing more. */
    private final Sinks.Empty<Void> gate = Sinks.empty();
    private final List<Integer> slowlyRead = new CopyOnWriteArrayList<>();
    private final CompletableFuture<CloseStatus> serverCloseStatus = new CompletableFuture<>();

    @SpringBootConfiguration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class WebSocketApplication {

        @Bean
        HandlerMapping webSocketMapping(ReactiveWebSocketIT test) {
            Map<String, WebSocketHandler> handlers = Map.of(
                    "/echo", session -> session.send(session.receive().map(WebSocketMessage::retain)),
                    "/sub-protocol", new SubProtocolHandler(),
                    "/handshake", session -> session.send(Mono.just(session.textMessage(
                            session.getHandshakeInfo().getHeaders().getFirst("my-header") + " "
                                    + cookie(session, "project")))),
                    "/closing", test::closeOnRequest,
                    "/slow", test::readSlowly,
                    "/send-only", session -> session.send(Mono.just(session.textMessage("hi"))).then(Mono.never()));
            return new SimpleUrlHandlerMapping(handlers, -1);
        }

        /** A cookie set on the handshake's response, by a filter as an application would. */
        @Bean
        WebFilter handshakeCookie() {
            return (exchange, chain) -> {
                exchange.getResponse().addCookie(ResponseCookie.from("seen", "yes").path("/").build());
                return chain.filter(exchange);
            };
        }

        private static String cookie(WebSocketSession session, String name) {
            HttpCookie cookie = session.getHandshakeInfo().getCookies().getFirst(name);
            return cookie == null ? "none" : cookie.getValue();
        }
    }

    /** Offers two sub-protocols and tells the client which one was agreed. */
    static final class SubProtocolHandler implements WebSocketHandler {

        @Override
        public List<String> getSubProtocols() {
            return List.of("echo-v1", "echo-v2");
        }

        @Override
        public Mono<Void> handle(WebSocketSession session) {
            return session.send(Mono.just(session.textMessage("agreed " + session.getHandshakeInfo().getSubProtocol())));
        }
    }

    private Mono<Void> closeOnRequest(WebSocketSession session) {
        session.closeStatus().subscribe(serverCloseStatus::complete);
        return session.receive().filter(message -> message.getPayloadAsText().equals("close please")).next()
                .flatMap(request -> session.close(new CloseStatus(4000, "asked to")));
    }

    private Mono<Void> readSlowly(WebSocketSession session) {
        return session.receive().concatMap(message -> {
            int index = message.getPayload().asByteBuffer().getInt(0);
            slowlyRead.add(index);
            return slowlyRead.size() == 1 ? gate.asMono().thenReturn(index) : Mono.just(index);
        }, 1).then();
    }

    @BeforeEach
    void start() {
        context = new SpringApplicationBuilder(WebSocketApplication.class)
                .initializers(ctx -> ((ConfigurableApplicationContext) ctx).getBeanFactory()
                        .registerSingleton("reactiveWebSocketIT", this))
                .web(WebApplicationType.REACTIVE)
                .run("--server.port=0", "--server.address=127.0.0.1", "--spring.main.banner-mode=off",
                        "--sprout.server.execution-mode=" + mode, "--sprout.server.thread-type=" + threads,
                        "--sprout.server.thread-pool-size=16",
                        "--sprout.server.websocket.max-binary-message-size=16MB");
        port = ((WebServerApplicationContext) context).getWebServer().getPort();
    }

    @AfterEach
    void stop() {
        if (context != null) {
            context.close();
        }
    }

    @Test
    void runsOnSproutsOwnUpgradeStrategy() {
        assertThat(context.getBean(SproutRequestUpgradeStrategy.class)).isNotNull();
    }

    @Test
    void echoesTextAndBinaryAndClosesCleanly() throws Exception {
        RecordingClient client = new RecordingClient();
        java.net.http.WebSocket socket = connect("/echo", client, builder -> builder);

        socket.sendText("hello", true).get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        assertThat(client.next()).isEqualTo("text:hello");
        socket.sendBinary(ByteBuffer.wrap(new byte[] {1, 2, 3}), true).get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        assertThat(client.next()).isEqualTo("binary:3");
        socket.sendClose(1000, "done").get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        assertThat(client.next()).isEqualTo("close:1000");
    }

    @Test
    void echoesALargeBinaryMessageWhole() throws Exception {
        RecordingClient client = new RecordingClient();
        java.net.http.WebSocket socket = connect("/echo", client, builder -> builder);
        byte[] large = new byte[LARGE];
        new java.util.Random(7).nextBytes(large);

        socket.sendBinary(ByteBuffer.wrap(large), true).get(PATIENCE.toSeconds(), TimeUnit.SECONDS);

        assertThat(client.next()).isEqualTo("binary:" + LARGE);
        assertThat(client.lastBinary()).isEqualTo(large);
    }

    @Test
    void agreesTheSubProtocolTheClientAsksFor() throws Exception {
        RecordingClient client = new RecordingClient();
        java.net.http.WebSocket socket = connect("/sub-protocol", client, builder -> builder.subprotocols("echo-v2"));

        assertThat(socket.getSubprotocol()).isEqualTo("echo-v2");
        assertThat(client.next()).isEqualTo("text:agreed echo-v2");
    }

    @Test
    void theHandlerSeesTheHandshakesHeadersAndCookies() throws Exception {
        RecordingClient client = new RecordingClient();
        connect("/handshake", client, builder -> builder.header("my-header", "my-value")
                .header("Cookie", "project=spring"));

        assertThat(client.next()).isEqualTo("text:my-value spring");
    }

    @Test
    void theSwitchingProtocolsResponseCarriesTheApplicationsCookie() throws Exception {
        try (Socket raw = new Socket(InetAddress.getLoopbackAddress(), port)) {
            OutputStream out = raw.getOutputStream();
            String key = Base64.getEncoder().encodeToString(new byte[16]);
            out.write(("GET /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: " + key + "\r\nSec-WebSocket-Version: 13\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(raw.getInputStream(),
                    StandardCharsets.US_ASCII));
            List<String> head = new ArrayList<>();
            for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
                head.add(line);
            }

            assertThat(head.getFirst()).startsWith("HTTP/1.1 101 ");
            assertThat(head).anySatisfy(line -> assertThat(line).startsWithIgnoringCase("set-cookie: seen=yes"));
        }
    }

    @Test
    void theServerClosesWithTheApplicationsStatus() throws Exception {
        RecordingClient client = new RecordingClient();
        java.net.http.WebSocket socket = connect("/closing", client, builder -> builder);

        socket.sendText("close please", true).get(PATIENCE.toSeconds(), TimeUnit.SECONDS);

        // The JDK client answers the Close itself, which completes the server's closing handshake.
        assertThat(client.next()).isEqualTo("close:4000");
        assertThat(serverCloseStatus.get(PATIENCE.toSeconds(), TimeUnit.SECONDS).getCode()).isEqualTo(4000);
    }

    @Test
    void aReaderWithoutDemandHoldsTheClientBackAndLosesNothing() throws Exception {
        java.net.http.WebSocket socket = connect("/slow", new RecordingClient(), builder -> builder);
        AtomicInteger sent = new AtomicInteger();
        CompletableFuture<Void> sending = CompletableFuture.runAsync(() -> {
            for (int i = 0; i < FLOW_MESSAGES; i++) {
                socket.sendBinary(ByteBuffer.allocate(FLOW_MESSAGE).putInt(0, i), true).join();
                sent.incrementAndGet();
            }
        });
        await().atMost(PATIENCE).until(() -> slowlyRead.size() == 1);

        await("the server reads nothing while the application asks for nothing").during(STAND_STILL)
                .atMost(STAND_STILL.multipliedBy(4))
                .until(() -> slowlyRead.size() == 1 && sent.get() < FLOW_MESSAGES);
        gate.tryEmitEmpty();

        sending.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        await().atMost(PATIENCE).until(() -> slowlyRead.size() == FLOW_MESSAGES);
        assertThat(slowlyRead).isEqualTo(IntStream.range(0, FLOW_MESSAGES).boxed().toList());
    }

    @Test
    void aSessionThatNeverReadsHoldsAFloodingClientBack() throws Exception {
        RecordingClient client = new RecordingClient();
        java.net.http.WebSocket socket = connect("/send-only", client, builder -> builder);
        assertThat(client.next()).isEqualTo("text:hi");
        AtomicInteger sent = new AtomicInteger();
        CompletableFuture.runAsync(() -> {
            for (int i = 0; i < FLOW_MESSAGES; i++) {
                socket.sendBinary(ByteBuffer.allocate(FLOW_MESSAGE), true).join();
                sent.incrementAndGet();
            }
        });
        await().atMost(PATIENCE).until(() -> sent.get() > 0);

        await("the server stops reading a session nobody reads").during(STAND_STILL)
                .atMost(STAND_STILL.multipliedBy(4)).until(() -> sent.get() < FLOW_MESSAGES);
        socket.abort();
    }

    private java.net.http.WebSocket connect(String path, RecordingClient client,
            java.util.function.UnaryOperator<java.net.http.WebSocket.Builder> options) throws Exception {
        return options.apply(HttpClient.newHttpClient().newWebSocketBuilder())
                .buildAsync(URI.create("ws://127.0.0.1:" + port + path), client)
                .get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
    }
}
