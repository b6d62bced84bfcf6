package io.sprout.engine.contract;

import static org.assertj.core.api.Assertions.assertThat;

import io.sprout.engine.Http2Config;
import io.sprout.engine.RequestHandler;
import io.sprout.engine.ServerConfig;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * HTTP/2 over real sockets in every combination, with the JDK's {@link HttpClient} as the client: h2c by
 * {@code Upgrade} (the upgrade request becomes stream 1), h2 over TLS by ALPN, many streams at
 * once on one connection, bodies larger than every flow-control window in both directions, and HTTP/1.1 where
 * HTTP/2 is off. The frame-level behaviour (prior knowledge, errors, floods) is {@link Http2FramesIT}'s. Each
 * server checks on close that no connection, buffer or request is left behind.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(Combination.class)
class Http2IT {

    @Parameter
    Combination combination;

    private RunningServer start(UnaryOperator<ServerConfig.Builder> more) {
        return RunningServer.start(combination, new TlsHandler(),
                builder -> more.apply(builder.http2(Http2Config.DEFAULT)));
    }

    @Test
    void upgradesToH2cAndCarriesOnOverHttp2() throws Exception {
        try (RunningServer server = start(UnaryOperator.identity());
                HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build()) {
            // The JDK upgrades with a request without a body; one with a body is Http2FramesIT's.
            HttpResponse<String> hello = client.send(get(server, "http", "/hello"),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(hello.version()).isEqualTo(HttpClient.Version.HTTP_2);
            assertThat(hello.body()).isEqualTo("Hello, World!");
            byte[] body = pattern(200_000);
            HttpResponse<byte[]> echoed = client.send(post(server, "http", "/echo", body),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertThat(echoed.version()).isEqualTo(HttpClient.Version.HTTP_2);
            assertThat(echoed.body()).isEqualTo(body);
            assertThat(server.stats().connectionsAccepted()).isEqualTo(1);
        }
    }

    @Test
    void answersExpectContinueBeforeTheBodyArrives() throws Exception {
        try (RunningServer server = start(UnaryOperator.identity());
                HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build()) {
            client.send(get(server, "http", "/hello"), HttpResponse.BodyHandlers.discarding());
            byte[] body = pattern(50_000);
            HttpRequest request = HttpRequest.newBuilder(uri(server, "http", "/echo")).expectContinue(true)
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
            HttpResponse<byte[]> echoed = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
            assertThat(echoed.version()).isEqualTo(HttpClient.Version.HTTP_2);
            assertThat(echoed.body()).isEqualTo(body);
        }
    }

    @Test
    void servesManyStreamsAtOnceOnOneConnection() throws Exception {
        try (RunningServer server = start(UnaryOperator.identity());
                HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build()) {
            client.send(get(server, "http", "/hello"), HttpResponse.BodyHandlers.discarding());
            List<CompletableFuture<HttpResponse<byte[]>>> responses = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                responses.add(client.sendAsync(post(server, "http", "/echo", pattern(10_000 + i)),
                        HttpResponse.BodyHandlers.ofByteArray()));
            }
            for (int i = 0; i < responses.size(); i++) {
                HttpResponse<byte[]> response = responses.get(i).get();
                assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_2);
                assertThat(response.body()).isEqualTo(pattern(10_000 + i));
            }
            assertThat(server.stats().connectionsAccepted()).isEqualTo(1);
        }
    }

    @Test
    void sendsAResponseLargerThanEveryWindow() throws Exception {
        try (RunningServer server = start(UnaryOperator.identity());
                HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build()) {
            client.send(get(server, "http", "/hello"), HttpResponse.BodyHandlers.discarding());
            HttpResponse<byte[]> response = client.send(get(server, "http", "/stream?5000000"),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_2);
            assertThat(response.body()).hasSize(5_000_000);
            for (int i = 0; i < response.body().length; i += 4999) {
                assertThat(response.body()[i]).isEqualTo(ContractHandler.patternByte(i));
            }
        }
    }

    @Test
    void runsAsynchronousAndNonBlockingExchangesOnStreams() throws Exception {
        RequestHandler handler = (request, response) -> {
            Suspended exchange = Suspended.start(request, response);
            if (request.path().equals("/echo")) {
                NonBlockingEcho.completing(exchange, new TaskLog()).start();
            } else {
                exchange.async.executeConcurrently(() -> exchange.answer("later"));
            }
        };
        try (RunningServer server = RunningServer.start(combination, handler,
                builder -> builder.http2(Http2Config.DEFAULT));
                HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build()) {
            HttpResponse<String> later = client.send(get(server, "http", "/later"),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(later.version()).isEqualTo(HttpClient.Version.HTTP_2);
            assertThat(later.body()).isEqualTo("later");
            List<CompletableFuture<HttpResponse<byte[]>>> echoes = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                echoes.add(client.sendAsync(post(server, "http", "/echo", pattern(2_000_000 + i)),
                        HttpResponse.BodyHandlers.ofByteArray()));
            }
            for (int i = 0; i < echoes.size(); i++) {
                assertThat(echoes.get(i).get().body()).isEqualTo(pattern(2_000_000 + i));
            }
        }
    }

    @Test
    void agreesH2ThroughAlpnOverTls() throws Exception {
        try (RunningServer server = start(TestTls.https());
                HttpClient client = HttpClient.newBuilder().sslContext(TestTls.client())
                        .version(HttpClient.Version.HTTP_2).build()) {
            HttpResponse<String> tls = client.send(get(server, "https", "/tls"), HttpResponse.BodyHandlers.ofString());
            assertThat(tls.version()).isEqualTo(HttpClient.Version.HTTP_2);
            assertThat(tls.body()).contains("secure=true", "alpn=h2");
            byte[] body = pattern(3_000_000);
            HttpResponse<byte[]> echoed = client.send(post(server, "https", "/echo", body),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertThat(echoed.body()).isEqualTo(body);
        }
    }

    @Test
    void speaksHttp11WhenHttp2IsOff() throws Exception {
        try (RunningServer server = RunningServer.start(combination, new TlsHandler());
                HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build()) {
            HttpResponse<String> hello = client.send(get(server, "http", "/hello"),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(hello.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
            assertThat(hello.body()).isEqualTo("Hello, World!");
        }
        try (RunningServer server = RunningServer.start(combination, new TlsHandler(), TestTls.https());
                HttpClient client = HttpClient.newBuilder().sslContext(TestTls.client())
                        .version(HttpClient.Version.HTTP_2).build()) {
            HttpResponse<String> tls = client.send(get(server, "https", "/tls"), HttpResponse.BodyHandlers.ofString());
            assertThat(tls.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
        }
    }

    private static HttpRequest get(RunningServer server, String scheme, String path) {
        return HttpRequest.newBuilder(uri(server, scheme, path)).build();
    }

    private static HttpRequest post(RunningServer server, String scheme, String path, byte[] body) {
        return HttpRequest.newBuilder(uri(server, scheme, path)).POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
    }

    private static URI uri(RunningServer server, String scheme, String path) {
        String host = scheme.equals("https") ? "localhost" : "127.0.0.1";
        return URI.create(scheme + "://" + host + ":" + server.port() + path);
    }

    static byte[] pattern(int length) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = ContractHandler.patternByte(i);
        }
        return bytes;
    }

    static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
