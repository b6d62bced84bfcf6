package io.sprout.boot.web;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The warm-up's own HTTP/1.1 reader against a scripted server: every framing a server may answer a GET with, a
 * keep-alive connection closed while idle, and answers that are not HTTP.
 */
class WarmUpConnectionTest {

    /** Bounds every read, so a reader bug fails the test instead of hanging it. */
    private static final Duration LIMIT = Duration.ofSeconds(10);

    /** Ends an answer after which the scripted server closes the connection. */
    private static final String THEN_CLOSE = "<then close>";

    /** A deadline a test reaches on purpose. */
    private static final Duration SHORT = Duration.ofMillis(200);

    private final List<String> requests = new CopyOnWriteArrayList<>();
    private ServerSocket server;

    /**
     * Answers each request read on each accepted connection with the next of {@code answers}; an answer of
     * {@code null} closes the connection instead of answering, one ending in {@link #THEN_CLOSE} closes it after.
     */
    private InetSocketAddress serve(String... answers) throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofPlatform().daemon().start(() -> {
            int next = 0;
            while (next < answers.length) {
                try (Socket socket = server.accept()) {
                    InputStream in = socket.getInputStream();
                    while (next < answers.length) {
                        String request = readHead(in);
                        if (request == null) {
                            break;
                        }
                        requests.add(request);
                        String answer = answers[next++];
                        if (answer == null) {
                            break;
                        }
                        socket.getOutputStream().write(answer.replace(THEN_CLOSE, "")
                                .getBytes(StandardCharsets.ISO_8859_1));
                        if (answer.endsWith(THEN_CLOSE)) {
                            break;
                        }
                    }
                } catch (IOException closed) {
                    return;
                }
            }
        });
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort());
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                return null;
            }
            head.write(b);
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }

    @AfterEach
    void close() throws IOException {
        server.close();
    }

    private static long deadline() {
        return System.nanoTime() + LIMIT.toNanos();
    }

    @Test
    void readsEveryFramingOnOneKeepAliveConnection() throws IOException {
        InetSocketAddress address = serve(
                "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
                "HTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\nHTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n",
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3;ext=1\r\nabc\r\n2\r\n\u00ff\u00ff\r\n0\r\nX-T: 1\r\n\r\n",
                "HTTP/1.1 304 Not Modified\r\nContent-Length: 99\r\n\r\n",
                "HTTP/1.1 204 No Content\r\n\r\n",
                "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
        try (WarmUpConnection connection = new WarmUpConnection(address)) {
            assertThat(connection.get("/a", "", deadline())).isEqualTo(200);
            assertThat(connection.get("/b?c=d", "", deadline())).isEqualTo(404);
            assertThat(connection.get("/c", "", deadline())).isEqualTo(200);
            assertThat(connection.get("/d", "", deadline())).isEqualTo(304);
            assertThat(connection.get("/e", "", deadline())).isEqualTo(204);
            assertThat(connection.get("/f", "Accept: */*\r\n", deadline())).isEqualTo(200);
        }
        assertThat(requests).hasSize(6).allMatch(request -> request.contains("\r\nUser-Agent: sprout-warm-up\r\n"));
        assertThat(requests.get(1)).startsWith("GET /b?c=d HTTP/1.1\r\nHost: 127.0.0.1:");
        assertThat(requests.get(0)).doesNotContain("Accept");
        assertThat(requests.get(5)).endsWith("\r\nUser-Agent: sprout-warm-up\r\nAccept: */*\r\n\r\n");
    }

    @Test
    void reconnectsAfterConnectionCloseAndAfterABodyReadToTheEnd() throws IOException {
        InetSocketAddress address = serve(
                "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 1\r\n\r\nx",
                "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil the end" + THEN_CLOSE,
                "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
        try (WarmUpConnection connection = new WarmUpConnection(address)) {
            assertThat(connection.get("/1", "", deadline())).isEqualTo(200);
            assertThat(connection.get("/2", "", deadline())).isEqualTo(200);
            assertThat(connection.get("/3", "", deadline())).isEqualTo(200);
        }
        assertThat(requests).hasSize(3);
    }

    @Test
    void retriesOnceWhenAnIdleKeepAliveConnectionWasClosed() throws IOException {
        InetSocketAddress address = serve("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", null,
                "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
        try (WarmUpConnection connection = new WarmUpConnection(address)) {
            assertThat(connection.get("/first", "", deadline())).isEqualTo(200);
            assertThat(connection.get("/second", "", deadline())).isEqualTo(200);
        }
        assertThat(requests).hasSize(3);
    }

    @Test
    void refusesWhatIsNotAnHttpAnswer() throws IOException {
        InetSocketAddress address = serve("SSH-2.0-OpenSSH\r\n\r\n", "HTTP/1.1 200 OK\r\nContent-Length: zz\r\n\r\n",
                "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort" + THEN_CLOSE);
        try (WarmUpConnection connection = new WarmUpConnection(address)) {
            assertThatExceptionOfType(IOException.class).isThrownBy(() -> connection.get("/", "", deadline()))
                    .withMessageContaining("not an HTTP/1.x response: SSH-2.0-OpenSSH");
        }
        try (WarmUpConnection connection = new WarmUpConnection(address)) {
            assertThatExceptionOfType(IOException.class).isThrownBy(() -> connection.get("/", "", deadline()))
                    .withMessageContaining("bad length: zz");
        }
        try (WarmUpConnection connection = new WarmUpConnection(address)) {
            assertThatExceptionOfType(IOException.class).isThrownBy(() -> connection.get("/", "", deadline()))
                    .withMessageContaining("bytes before the end of the body");
        }
    }

    @Test
    void givesUpAtItsDeadline() throws IOException {
        InetSocketAddress address = serve();
        try (WarmUpConnection connection = new WarmUpConnection(address)) {
            assertThatExceptionOfType(WarmUpConnection.TimeLimitReached.class)
                    .isThrownBy(() -> connection.get("/", "", System.nanoTime() - 1))
                    .withMessage("warm-up time limit reached");
        }
    }

    @Test
    void aServerSilentUntilTheDeadlineIsTheTimeLimitNotAFailure() throws IOException {
        InetSocketAddress address = serve();
        try (WarmUpConnection connection = new WarmUpConnection(address)) {
            assertThatExceptionOfType(WarmUpConnection.TimeLimitReached.class)
                    .isThrownBy(() -> connection.get("/", "", System.nanoTime() + SHORT.toNanos()));
        }
    }
}
