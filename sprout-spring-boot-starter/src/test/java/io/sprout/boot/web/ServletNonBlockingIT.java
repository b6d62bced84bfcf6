package io.sprout.boot.web;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpUpgradeHandler;
import jakarta.servlet.http.WebConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.CRC32;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Servlet 6.1 asynchronous and non-blocking I/O over real sockets, in every execution mode and thread type:
 * {@code ReadListener}, protocol upgrade with {@code WebConnection}, and what the application hears when the server
 * stops under a pending cycle.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("io.sprout.boot.web.Engines#all")
class ServletNonBlockingIT {

    @Parameter
    Engines engines;

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private ServletUnderTest server;

    @AfterEach
    void destroy() {
        if (server != null) {
            server.close();
        }
    }

    private void start(String pattern, HttpServlet servlet) {
        server = ServletUnderTest.start(engines, pattern, servlet);
    }

    private URI uri(String path) {
        return server.uri(path);
    }

    @Test
    void readListenerReceivesAChunkedBodyAndTheEnd() throws Exception {
        start("/read", new HttpServlet() {
            @Override
            protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                AsyncContext async = req.startAsync();
                ServletInputStream in = req.getInputStream();
                ByteArrayOutputStream received = new ByteArrayOutputStream();
                in.setReadListener(new ReadListener() {
                    private final byte[] chunk = new byte[8192];

                    @Override
                    public void onDataAvailable() throws IOException {
                        while (in.isReady() && !in.isFinished()) {
                            int count = in.read(chunk);
                            if (count > 0) {
                                received.write(chunk, 0, count);
                            }
                        }
                    }

                    @Override
                    public void onAllDataRead() throws IOException {
                        CRC32 crc = new CRC32();
                        crc.update(received.toByteArray());
                        async.getResponse().getWriter().print(received.size() + " " + crc.getValue());
                        async.complete();
                    }

                    @Override
                    public void onError(Throwable failure) {
                        async.complete();
                    }
                });
            }
        });
        byte[] body = new byte[3 * 1024 * 1024 + 17];
        new Random(7).nextBytes(body);
        CRC32 crc = new CRC32();
        crc.update(body);
        List<byte[]> pieces = List.of(java.util.Arrays.copyOfRange(body, 0, 1_000_000),
                java.util.Arrays.copyOfRange(body, 1_000_000, body.length));
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(uri("/read"))
                        .timeout(Duration.ofSeconds(30))
                        .POST(HttpRequest.BodyPublishers.ofByteArrays(pieces)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo(body.length + " " + crc.getValue());
    }

    @Test
    void refusesAReadListenerWithoutAsyncOrTwice() throws Exception {
        start("/refuse", new HttpServlet() {
            @Override
            protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                ServletInputStream in = req.getInputStream();
                ReadListener ignored = new ReadListener() {
                    @Override
                    public void onDataAvailable() {
                    }

                    @Override
                    public void onAllDataRead() {
                    }

                    @Override
                    public void onError(Throwable t) {
                    }
                };
                StringBuilder outcome = new StringBuilder();
                try {
                    in.setReadListener(ignored);
                } catch (IllegalStateException expected) {
                    outcome.append("no-async ");
                }
                AsyncContext async = req.startAsync();
                in.setReadListener(ignored);
                try {
                    in.setReadListener(ignored);
                } catch (IllegalStateException expected) {
                    outcome.append("twice");
                }
                async.getResponse().getWriter().print(outcome);
                async.complete();
            }
        });
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(uri("/refuse"))
                .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.body()).isEqualTo("no-async twice");
    }

    @Test
    void upgradeHandsTheConnectionAndTheBytesAfterTheHeadToTheHandler() throws Exception {
        startEchoUpgrade(request -> { });
        try (Socket socket = upgradeRequest("hello")) {
            InputStream in = socket.getInputStream();
            String head = readHead(in);
            assertThat(head).startsWith("HTTP/1.1 101 ").contains("Upgrade: echo").contains("Connection: Upgrade");
            assertThat(readExactly(in, 5)).isEqualTo("hello");
            socket.getOutputStream().write("world".getBytes(StandardCharsets.US_ASCII));
            assertThat(readExactly(in, 5)).isEqualTo("world");
            socket.shutdownOutput();
            assertThat(in.read()).as("the handler closes after the client's end").isEqualTo(-1);
        }
        assertThat(EchoUpgrade.destroyed.await(10, TimeUnit.SECONDS)).as("destroy() was called").isTrue();
    }

    @Test
    void refusesASecondUpgradeAndKeepsTheFirst() throws Exception {
        AtomicReference<String> refusal = new AtomicReference<>();
        startEchoUpgrade(request -> {
            try {
                request.upgrade(EchoUpgrade.class);
            } catch (IllegalStateException expected) {
                refusal.set(expected.getMessage());
            }
        });
        try (Socket socket = upgradeRequest("ping")) {
            InputStream in = socket.getInputStream();
            assertThat(readHead(in)).startsWith("HTTP/1.1 101 ");
            assertThat(readExactly(in, 4)).isEqualTo("ping");
        }
        assertThat(refusal.get()).isEqualTo("upgrade() has already been called for this request");
        assertThat(EchoUpgrade.destroyed.await(10, TimeUnit.SECONDS)).as("destroy() was called").isTrue();
    }

    /** What a servlet does with its request after it has upgraded it to {@link EchoUpgrade}. */
    private interface AfterUpgrade {
        void accept(HttpServletRequest request) throws IOException, jakarta.servlet.ServletException;
    }

    private void startEchoUpgrade(AfterUpgrade after) {
        EchoUpgrade.destroyed = new CountDownLatch(1);
        start("/upgrade", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException,
                    jakarta.servlet.ServletException {
                resp.setHeader("Upgrade", "echo");
                resp.setHeader("Connection", "Upgrade");
                req.upgrade(EchoUpgrade.class);
                after.accept(req);
            }
        });
    }

    /** A connection that has sent an upgrade request to /upgrade and, right behind its head, {@code firstBytes}. */
    private Socket upgradeRequest(String firstBytes) throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", server.port()), 10_000);
        socket.setSoTimeout(30_000);
        socket.getOutputStream().write(("GET /upgrade HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade\r\n"
                + "Upgrade: echo\r\n\r\n" + firstBytes).getBytes(StandardCharsets.US_ASCII));
        return socket;
    }

    @Test
    void stoppingTheServerTellsAPendingCycleOnErrorThenOnComplete() throws Exception {
        List<String> events = new CopyOnWriteArrayList<>();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch told = new CountDownLatch(2);
        start("/pending", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) {
                AsyncContext async = req.startAsync();
                async.setTimeout(0);
                async.addListener(new AsyncListener() {
                    @Override
                    public void onComplete(AsyncEvent event) {
                        events.add("complete");
                        told.countDown();
                    }

                    @Override
                    public void onTimeout(AsyncEvent event) {
                        events.add("timeout");
                    }

                    @Override
                    public void onError(AsyncEvent event) {
                        events.add("error");
                        told.countDown();
                    }

                    @Override
                    public void onStartAsync(AsyncEvent event) {
                    }
                });
                started.countDown();
            }
        });
        AtomicReference<Throwable> clientSaw = new AtomicReference<>();
        Thread pending = Thread.ofVirtual().start(() -> {
            try {
                client.send(HttpRequest.newBuilder(uri("/pending")).timeout(Duration.ofSeconds(30)).build(),
                        HttpResponse.BodyHandlers.ofString());
            } catch (IOException | InterruptedException e) {
                clientSaw.set(e);
            }
        });
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        server.webServer().stop();
        assertThat(told.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(events).containsExactly("error", "complete");
        pending.join(Duration.ofSeconds(30));
        assertThat(clientSaw.get()).as("the client's connection was closed").isInstanceOf(IOException.class);
    }

    private static String readHead(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            head.append((char) b);
        }
        return head.toString();
    }

    private static String readExactly(InputStream in, int count) throws IOException {
        return new String(in.readNBytes(count), StandardCharsets.US_ASCII);
    }

    /** Echoes every byte until the client's end, with a ReadListener, then closes the connection. */
    public static final class EchoUpgrade implements HttpUpgradeHandler {

        static volatile CountDownLatch destroyed;

        @Override
        public void init(WebConnection connection) {
            try {
                ServletInputStream in = connection.getInputStream();
                ServletOutputStream out = connection.getOutputStream();
                in.setReadListener(new ReadListener() {
                    private final byte[] chunk = new byte[1024];

                    @Override
                    public void onDataAvailable() throws IOException {
                        while (in.isReady() && !in.isFinished()) {
                            int count = in.read(chunk);
                            if (count > 0) {
                                out.write(chunk, 0, count);
                                out.flush();
                            }
                        }
                    }

                    @Override
                    public void onAllDataRead() {
                        closeQuietly(connection);
                    }

                    @Override
                    public void onError(Throwable failure) {
                        closeQuietly(connection);
                    }
                });
            } catch (IOException e) {
                closeQuietly(connection);
            }
        }

        @Override
        public void destroy() {
            destroyed.countDown();
        }

        private static void closeQuietly(WebConnection connection) {
            try {
                connection.close();
            } catch (Exception ignored) {
                // The connection is going away either way.
            }
        }
    }
}
