package io.sprout.boot.websocket;

import io.sprout.boot.wsapp.WebSocketTestApplication;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import java.net.http.HttpClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A graceful shutdown closes open WebSocket sessions with 1001 (Going Away), Spring's and Jakarta endpoints
 * alike, in every execution mode and thread type.
 */
class WebSocketGracefulShutdownIT {

    @ParameterizedTest(name = "{0}/{1}")
    @CsvSource({"nio,platform", "nio,virtual", "hybrid,platform", "hybrid,virtual"})
    void gracefulShutdownClosesSessionsWithGoingAway(String mode, String threads) throws Exception {
        ConfigurableApplicationContext context = new SpringApplicationBuilder(WebSocketTestApplication.class)
                .properties("server.port=0", "server.shutdown=graceful", "sprout.server.execution-mode=" + mode,
                        "sprout.server.thread-type=" + threads)
                .run();
        HttpClient client = HttpClient.newHttpClient();
        TestSocket echo;
        TestSocket chat;
        try {
            int port = ((WebServerApplicationContext) context).getWebServer().getPort();
            echo = TestSocket.open(client, "ws://127.0.0.1:" + port + "/echo");
            chat = TestSocket.open(client, "ws://127.0.0.1:" + port + "/chat/lobby");
            echo.send("ready?");
            assertThat(echo.next()).isEqualTo("echo: ready?");
            assertThat(chat.next()).isEqualTo("joined lobby");
        } finally {
            context.close();
        }
        assertThat(echo.closeCode()).isEqualTo(1001);
        assertThat(chat.closeCode()).isEqualTo(1001);
    }
}
