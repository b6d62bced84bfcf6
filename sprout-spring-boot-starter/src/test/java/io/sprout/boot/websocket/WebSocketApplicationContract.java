package io.sprout.boot.websocket;

import io.micrometer.core.instrument.MeterRegistry;
import io.sprout.boot.web.SproutWebServer;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.web.server.context.WebServerApplicationContext;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A WebSocket application on Sprout over real sockets with the JDK's client: Spring STOMP, an
 * {@code @EnableWebSocket} handler, SockJS, {@code @ServerEndpoint} classes and the handshake's error answers. Run
 * by each of the four subclasses in one execution mode and thread type.
 */
abstract class WebSocketApplicationContract extends WebSocketAppTest {

    @Autowired
    WebServerApplicationContext context;

    @Autowired
    MeterRegistry meters;

    /** The execution mode and thread type the subclass configured, e.g. {@code "NIO/VIRTUAL"}. */
    abstract String expectedEngine();

    @Test
    void runsOnSproutWithTheConfiguredEngine() {
        var config = ((SproutWebServer) context.getWebServer()).config();
        assertThat(config.executionMode() + "/" + config.threadType()).isEqualTo(expectedEngine());
    }

    @Test
    void stompGreetingReachesTheSubscriber() throws Exception {
        TestSocket stomp = connect("/gs-guide-websocket");
        stomp.send("CONNECT\naccept-version:1.2\nhost:127.0.0.1\n\n\0");
        assertThat(stomp.next()).startsWith("CONNECTED");
        stomp.send("SUBSCRIBE\nid:sub-0\ndestination:/topic/greetings\n\n\0");
        // The broker may take the SEND before the SUBSCRIBE (Spring's inbound channel is a pool), and a greeting
        // sent before the subscription counts reaches nobody: send until one arrives.
        String message = null;
        for (int attempt = 0; attempt < 100 && message == null; attempt++) {
            stomp.send("SEND\ndestination:/app/hello\ncontent-type:application/json\n\n{\"name\":\"Sprout\"}\0");
            message = stomp.poll(200);
        }
        assertThat(message).startsWith("MESSAGE").contains("destination:/topic/greetings")
                .contains("{\"content\":\"Hello, Sprout!\"}");
    }

    @Test
    void enableWebSocketHandlerEchoes() throws Exception {
        TestSocket echo = connect("/echo");
        echo.send("hello");
        assertThat(echo.next()).isEqualTo("echo: hello");
    }

    @Test
    void sockJsInfoEndpointAnswers() throws Exception {
        HttpResponse<String> info = client.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/sockjs-echo/info")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(info.statusCode()).isEqualTo(200);
        assertThat(info.body()).contains("\"websocket\":true");
    }

    @Test
    void chatBroadcastsToTheRoomOnly() throws Exception {
        TestSocket alice = connect("/chat/lobby");
        TestSocket bob = connect("/chat/lobby");
        TestSocket carol = connect("/chat/kitchen");
        assertThat(alice.next()).isEqualTo("joined lobby");
        assertThat(bob.next()).isEqualTo("joined lobby");
        assertThat(carol.next()).isEqualTo("joined kitchen");

        alice.send("alice:hi all");
        carol.send("carol:anyone?");

        assertThat(alice.next()).isEqualTo("[lobby] alice: hi all");
        assertThat(bob.next()).isEqualTo("[lobby] alice: hi all");
        // Carol's first message is her own: the lobby's line never reached the kitchen.
        assertThat(carol.next()).isEqualTo("[kitchen] carol: anyone?");
    }

    @Test
    void returnValueOfOnMessageIsSentBack() throws Exception {
        TestSocket limited = connect("/limited");
        limited.send("short");
        assertThat(limited.next()).isEqualTo("short");
    }

    @Test
    void messageOverTheEndpointLimitClosesWith1009() throws Exception {
        TestSocket limited = connect("/limited");
        limited.send("x".repeat(100));
        assertThat(limited.closeCode()).isEqualTo(1009);
    }

    @Test
    void badVersionIsRefusedWith400NamingVersion13() throws Exception {
        String response = handshake("/chat/lobby", "Sec-WebSocket-Version: 8\r\n");
        assertThat(response).startsWith("HTTP/1.1 400");
        assertThat(response).containsIgnoringCase("Sec-WebSocket-Version: 13");
    }

    @Test
    void missingKeyIsRefusedWith400() throws Exception {
        String response = rawRequest("GET /chat/lobby HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                + "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n\r\n");
        assertThat(response).startsWith("HTTP/1.1 400");
        assertThat(response).containsIgnoringCase("Sec-WebSocket-Version: 13");
    }

    @Test
    void refusedOriginGets403() throws Exception {
        String refused = handshake("/guarded", "Sec-WebSocket-Version: 13\r\nOrigin: http://evil.example\r\n");
        String allowed = handshake("/guarded", "Sec-WebSocket-Version: 13\r\nOrigin: http://allowed.example\r\n");
        assertThat(refused).startsWith("HTTP/1.1 403");
        assertThat(allowed).startsWith("HTTP/1.1 101");
    }

    @Test
    void metersCountSessionsAndMessages() throws Exception {
        double inBefore = meters.get("sprout.websocket.messages").tag("direction", "in").functionCounter().count();
        TestSocket alice = connect("/chat/meters");
        assertThat(alice.next()).isEqualTo("joined meters");
        assertThat(meters.get("sprout.websocket.sessions").gauge().value()).isGreaterThanOrEqualTo(1);
        alice.send("alice:counted");
        assertThat(alice.next()).isEqualTo("[meters] alice: counted");
        assertThat(meters.get("sprout.websocket.messages").tag("direction", "in").functionCounter().count())
                .isGreaterThan(inBefore);
        assertThat(meters.get("sprout.websocket.messages").tag("direction", "out").functionCounter().count())
                .isGreaterThanOrEqualTo(2);
    }

    @Test
    void programmaticEndpointSeesPathQuerySubprotocolAndConfigurator() throws Exception {
        TestSocket socket = TestSocket.open(client.newWebSocketBuilder().subprotocols("v1.proto")
                .header("X-Agent", "jdk"), "ws://127.0.0.1:" + port + "/programmatic/7?q=x");
        sockets.add(socket);
        assertThat(socket.subprotocol()).isEqualTo("v1.proto");
        socket.send("hi");
        assertThat(socket.next()).isEqualTo("id=7 query=q=x param=[x] protocol=v1.proto agent=[jdk] "
                + "uri=/programmatic/7 text=hi second=refused");
        socket.sendBinary(new byte[] {1, 2, 3, 4, 5});
        assertThat(socket.next()).isEqualTo("binary 5 bytes, last=true second=refused");
    }

    @Test
    void handshakeAgreesPermessageDeflateAndCarriesConfiguratorHeaders() throws Exception {
        String response = handshake("/programmatic/1", "Sec-WebSocket-Version: 13\r\n"
                + "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n");
        assertThat(response).startsWith("HTTP/1.1 101");
        assertThat(response).containsIgnoringCase("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
        assertThat(response).containsIgnoringCase("Sec-WebSocket-Extensions: permessage-deflate");
        assertThat(response).containsIgnoringCase("X-Handshake: seen");
    }

    @Test
    void sessionStreamsPingsAndAsyncSends() throws Exception {
        TestSocket features = connect("/features");
        features.send("writer");
        assertThat(features.next()).hasSize(20_000).startsWith("0123456789");
        features.send("stream");
        assertThat(features.nextBinarySize()).isEqualTo(20_000);
        features.send("ping");
        assertThat(features.next()).isEqualTo("pong 3");
        features.send("async");
        assertThat(features.next()).isEqualTo("async");
        assertThat(features.next()).isEqualTo("sent ok=true");
    }

    @Test
    void sessionIdleTimeoutClosesWithGoingAway() throws Exception {
        TestSocket features = connect("/features");
        features.send("idle");
        assertThat(features.closeCode()).isEqualTo(1001);
    }

    private String handshake(String path, String headers) throws Exception {
        return rawRequest("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n" + headers + "\r\n");
    }

    /** Sends one request and returns the response head. */
    private String rawRequest(String request) throws Exception {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(20_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            int b;
            while ((b = in.read()) >= 0) {
                head.write(b);
                if (head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
                    break;
                }
            }
            return head.toString(StandardCharsets.ISO_8859_1);
        }
    }
}
