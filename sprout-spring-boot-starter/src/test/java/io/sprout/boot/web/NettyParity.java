package io.sprout.boot.web;

import io.sprout.boot.fluxapp.FluxTestApplication;
import io.sprout.engine.ServerStats;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublisher;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The same Spring Boot WebFlux application ({@link FluxTestApplication}) run on Sprout and on Reactor Netty, Boot's
 * default reactive server: the two applications and the requests the parity tests send to both. One Netty
 * application is the reference for a test class; the Sprout application runs once in each engine combination.
 */
abstract class NettyParity {

    /** How long one request may take before the test fails instead of hanging: a guard, not a speed goal. */
    static final Duration NO_HANG = Duration.ofSeconds(30);

    /** The end of a complete chunked body: a body broken off by a failure lacks it. */
    static final String LAST_CHUNK = "0\r\n\r\n";

    static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(NO_HANG).build();

    // Static because JUnit shares nothing else between the invocations of a parameterized class, and starting a
    // Boot application per test method would start over a hundred of them for nothing.
    static ConfigurableApplicationContext netty;
    static ConfigurableApplicationContext sprout;

    @BeforeAll
    static void startNetty() {
        netty = run(List.of(), FluxTestApplication.class, ReactorNettyReference.class);
        assertThat(webServer(netty).getClass().getSimpleName()).isEqualTo("NettyWebServer");
    }

    @AfterAll
    static void stopNetty() {
        netty.close();
    }

    @BeforeParameterizedClassInvocation
    static void startSprout(Engines engines) {
        sprout = run(List.of("sprout.server.execution-mode=" + engines.mode().name().toLowerCase(Locale.ROOT),
                "sprout.server.thread-type=" + engines.threads().name().toLowerCase(Locale.ROOT),
                "sprout.server.thread-pool-size=16", "sprout.server.selector-threads=1"),
                FluxTestApplication.class);
    }

    /** Stops the Sprout application and checks, as every Sprout server test does, that no buffer is still leased. */
    @AfterParameterizedClassInvocation
    static void stopSprout() {
        ServerStats stats = ((SproutWebServer) webServer(sprout)).stats();
        sprout.close();
        assertThat(stats.buffersLeased()).as("buffers still leased after stop").isZero();
    }

    static ConfigurableApplicationContext run(List<String> engineProperties, Class<?>... sources) {
        List<String> properties = new ArrayList<>(List.of("server.port=0", "spring.main.banner-mode=off",
                "spring.main.register-shutdown-hook=false", "spring.web.error.include-message=always",
                "management.endpoints.web.exposure.include=health,info", "management.info.env.enabled=true",
                "info.app.name=flux-parity", "spring.web.resources.static-locations=classpath:/flux-static/"));
        properties.addAll(engineProperties);
        // REACTIVE by hand: the starter's test class path has Spring MVC too, which Boot would otherwise prefer.
        return new SpringApplicationBuilder(sources).web(WebApplicationType.REACTIVE)
                .properties(properties.toArray(String[]::new)).run();
    }

    static WebServer webServer(ConfigurableApplicationContext context) {
        return ((WebServerApplicationContext) context).getWebServer();
    }

    // --- requests ---

    static ParityAnswer call(ConfigurableApplicationContext application, String method, String path,
            BodyPublisher body, String... headers) throws IOException, InterruptedException {
        int port = webServer(application).getPort();
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(NO_HANG).method(method, body);
        if (headers.length > 0) {
            request.headers(headers);
        }
        return ParityAnswer.of(port, CLIENT.send(request.build(), BodyHandlers.ofByteArray()));
    }

    /** A POST with {@code Expect: 100-continue}: the body goes only once the server has said to send it. */
    static ParityAnswer callExpectingContinue(ConfigurableApplicationContext application, byte[] body)
            throws IOException, InterruptedException {
        int port = webServer(application).getPort();
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/stream/echo"))
                .timeout(NO_HANG).expectContinue(true).header("Content-Type", "application/octet-stream")
                .POST(BodyPublishers.ofByteArray(body)).build();
        return ParityAnswer.of(port, CLIENT.send(request, BodyHandlers.ofByteArray()));
    }

    /** Writes {@code request} as it is and reads the answer until the server closes the connection. */
    static ParityAnswer raw(ConfigurableApplicationContext application, String request) throws IOException {
        int port = webServer(application).getPort();
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout((int) NO_HANG.toMillis());
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            return ParityAnswer.parse(port, socket.getInputStream().readAllBytes());
        }
    }

    static ParityAnswers rawBoth(String request) throws IOException {
        return new ParityAnswers(raw(sprout, request), raw(netty, request));
    }

    /** Sends the same request to both applications, Sprout first. */
    static ParityAnswers both(String method, String path, BodyPublisher body, String... headers)
            throws IOException, InterruptedException {
        return new ParityAnswers(call(sprout, method, path, body, headers), call(netty, method, path, body, headers));
    }

    static ParityAnswers get(String path, String... headers) throws IOException, InterruptedException {
        return both("GET", path, BodyPublishers.noBody(), headers);
    }

    static ParityAnswers postJson(String path, String json) throws IOException, InterruptedException {
        return both("POST", path, BodyPublishers.ofString(json), "Content-Type", "application/json");
    }
}
