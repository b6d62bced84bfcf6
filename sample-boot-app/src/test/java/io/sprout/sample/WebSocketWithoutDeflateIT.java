package io.sprout.sample;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * With the property the benchmark runner passes for {@code WS_DEFLATE=0}, Sprout agrees to no
 * {@code permessage-deflate} although the client offers it, as Gatling does, on either stack; nor does Reactor Netty,
 * which never agrees. Tomcat and Jetty have no such switch (their JSR-356 containers negotiate the extension
 * themselves, whatever Spring's handshake selected), so the test does not run on them.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = "sprout.server.websocket.permessage-deflate=false")
class WebSocketWithoutDeflateIT {

    private static final int TIMEOUT_MILLIS = 10_000;

    @LocalServerPort
    private int port;

    @Autowired
    private ServerName server;

    @Test
    void theHandshakeAgreesToNoExtensionThoughTheClientOffersPermessageDeflate() throws IOException {
        assumeThat(this.server.get()).as("a server that can decline permessage-deflate").isIn("sprout", "netty");
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), this.port)) {
            socket.setSoTimeout(TIMEOUT_MILLIS);
            OutputStream out = socket.getOutputStream();
            out.write(("GET /ws/echo HTTP/1.1\r\nHost: 127.0.0.1:" + this.port + "\r\nUpgrade: websocket\r\n"
                    + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                    + "Sec-WebSocket-Version: 13\r\n"
                    + "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String head = readHead(socket.getInputStream());

            assertThat(head).startsWith("HTTP/1.1 101");
            assertThat(head.toLowerCase()).doesNotContain("sec-websocket-extensions");
        }
    }

    private static String readHead(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int next = in.read();
            if (next < 0) {
                break;
            }
            head.append((char) next);
        }
        return head.toString();
    }

}
