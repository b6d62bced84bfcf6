package io.sprout.boot.websocket;

import io.sprout.boot.wsapp.WebSocketTestApplication;
import org.junit.jupiter.api.AfterEach;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@link WebSocketTestApplication} on a random port, with JDK WebSocket clients closed after each test. The
 * contracts that extend it share one application context per combination.
 */
@SpringBootTest(classes = WebSocketTestApplication.class, properties = WebSocketTestApplication.SPROUT_TEXT_LIMIT,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
abstract class WebSocketAppTest {

    final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    final List<TestSocket> sockets = new ArrayList<>();

    @LocalServerPort
    int port;

    @AfterEach
    void closeSockets() {
        sockets.forEach(TestSocket::close);
    }

    TestSocket connect(String path) throws Exception {
        TestSocket socket = TestSocket.open(client, "ws://127.0.0.1:" + port + path);
        sockets.add(socket);
        return socket;
    }
}
