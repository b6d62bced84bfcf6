package io.sprout.boot.websocket;

import io.sprout.boot.wsapp.EchoEndpoint;
import io.sprout.boot.wsapp.UserEchoHandler;
import jakarta.servlet.ServletContext;
import jakarta.websocket.DeploymentException;
import jakarta.websocket.server.ServerContainer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static io.sprout.boot.wsapp.WebSocketTestApplication.CONTAINER_LIMIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What the container's settings and the RFC decide for the sessions of Spring handlers and {@code @ServerEndpoint}s,
 * over real sockets: limits from a {@code ServletServerContainerFactoryBean} (above Sprout's own default, which
 * they override), frames as large as the message limit, 1009 beyond it, protocol errors closed with the RFC's code
 * although the application's error handler closes the session, partial delivery, and no deployment after start.
 * Run by each of the four subclasses in one execution mode and thread type.
 */
abstract class WebSocketLimitsContract extends WebSocketAppTest {

    /** Above the 64 KiB frames Sprout once refused, within the container's limit. */
    private static final int LARGE = 100_000;

    @Autowired
    UserEchoHandler userEcho;

    @Autowired
    ServletContext servletContext;

    @Test
    void containerSettingsReachTheSessionsOfSpringHandlers() throws Exception {
        TestSocket echo = connect("/user-echo");
        echo.send("limits?");
        assertThat(echo.next()).isEqualTo("text=" + CONTAINER_LIMIT + " binary=" + CONTAINER_LIMIT + " idle=120000");
    }

    @Test
    void containerSettingsReachTheSessionsOfServerEndpoints() throws Exception {
        TestSocket echo = connect("/endpoint-echo");
        echo.send("limits?");
        assertThat(echo.next()).isEqualTo("text=" + CONTAINER_LIMIT + " binary=" + CONTAINER_LIMIT
                + " idle=120000 asyncSendTimeout=7000");
    }

    @ParameterizedTest
    @ValueSource(strings = {"/user-echo", "/endpoint-echo"})
    void aFrameLargerThan64KiBWithinTheMessageLimitIsAccepted(String path) throws Exception {
        TestSocket echo = connect(path);
        String text = "x".repeat(LARGE);
        echo.send(text);
        assertThat(echo.next()).isEqualTo(text);
        echo.sendBinary(new byte[LARGE]);
        assertThat(echo.nextBinarySize()).isEqualTo(LARGE);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/user-echo", "/endpoint-echo"})
    void aMessageOverTheContainerLimitClosesWith1009(String path) throws Exception {
        TestSocket echo = connect(path);
        echo.send("x".repeat(CONTAINER_LIMIT + 1));
        assertThat(echo.closeCode()).isEqualTo(1009);
    }

    @Test
    void aSessionSetterLowersItsLimit() throws Exception {
        TestSocket echo = connect("/endpoint-echo");
        echo.send("lower");
        assertThat(echo.next()).isEqualTo("lowered");
        echo.send("x".repeat(1_000));
        assertThat(echo.next()).hasSize(1_000);
        echo.send("x".repeat(1_001));
        assertThat(echo.closeCode()).isEqualTo(1009);
    }

    /** Each broken Close frame ends with the RFC's code although the error handler closes with 1011 if open. */
    @ParameterizedTest
    @ValueSource(strings = {"/user-echo", "/endpoint-echo"})
    void protocolErrorsCloseWithTheRfcsCodeBeforeTheApplicationHears(String path) throws Exception {
        assertThat(closeAfter(path, 0x8, new byte[] {3})).as("a one-byte Close payload").isEqualTo(1002);
        assertThat(closeAfter(path, 0x8, closePayload(999, "")))
                .as("a close code no one may send").isEqualTo(1002);
        assertThat(closeAfter(path, 0x8, closePayload(1000, "x".repeat(124))))
                .as("a Close frame over 125 bytes").isEqualTo(1002);
        byte[] notUtf8 = closePayload(1000, "");
        notUtf8 = java.util.Arrays.copyOf(notUtf8, notUtf8.length + 1);
        notUtf8[notUtf8.length - 1] = (byte) 0xFF;
        assertThat(closeAfter(path, 0x8, notUtf8)).as("a reason that is not UTF-8").isEqualTo(1007);
        assertThat(closeAfter(path, 0x1, new byte[] {'a', (byte) 0xC0, (byte) 0xAF}))
                .as("a text message that is not UTF-8").isEqualTo(1007);
        assertThat(closeAfter(path, 0x3, new byte[0])).as("a reserved opcode").isEqualTo(1002);
    }

    @Test
    void theSpringHandlerHearsOfAProtocolErrorOnceTheSessionIsClosed() throws Exception {
        userEcho.transportErrors().clear();
        assertThat(closeAfter("/user-echo", 0x8, new byte[] {3})).isEqualTo(1002);
        assertThat(userEcho.transportErrors().poll(20, TimeUnit.SECONDS)).isEqualTo("open=false");
        assertThat(userEcho.transportErrors()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"/parts", "/endpoint-parts"})
    void aPartialHandlerGetsALargeMessageInPartsWithNoMessageLimit(String path) throws Exception {
        TestSocket parts = connect(path);
        int length = 4 * CONTAINER_LIMIT;
        parts.send("p".repeat(length));
        String answer = parts.next();
        assertThat(answer).endsWith(" length=" + length);
        int count = Integer.parseInt(answer.substring("parts=".length(), answer.indexOf(' ')));
        assertThat(count).as("parts of at most 64 KiB").isGreaterThanOrEqualTo(length / 65_536);
    }

    @Test
    void endpointsCannotBeAddedOnceTheServerHasStarted() {
        ServerContainer container = (ServerContainer) servletContext.getAttribute(ServerContainer.class.getName());
        assertThatThrownBy(() -> container.addEndpoint(EchoEndpoint.class))
                .isInstanceOf(DeploymentException.class).hasMessageContaining("§6.4");
    }

    private int closeAfter(String path, int opcode, byte[] payload) throws Exception {
        try (RawWebSocket socket = RawWebSocket.open(port, path)) {
            socket.send(opcode, payload);
            return socket.closeCode();
        }
    }

    private static byte[] closePayload(int code, String reason) {
        ByteArrayOutputStream payload = new ByteArrayOutputStream();
        payload.write(code >> 8);
        payload.write(code & 0xFF);
        payload.writeBytes(reason.getBytes(StandardCharsets.UTF_8));
        return payload.toByteArray();
    }
}
