package io.sprout.boot.web;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
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

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ServletOutputStream.setWriteListener} over real sockets in every execution mode and thread type: a large
 * body written only while {@code isReady()}, the listener rules, and what the application hears when the client
 * goes away while it writes.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("io.sprout.boot.web.Engines#all")
class ServletWriteListenerIT {

    private static final int CHUNK = 64 * 1024;
    private static final byte[] BODY = randomBytes(8 * 1024 * 1024 + 5);

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

    @Test
    void writesALargeBodyOnlyWhileReadyAndNeverOnAnEventLoop() throws Exception {
        List<String> callbackThreads = new CopyOnWriteArrayList<>();
        List<Throwable> errors = new CopyOnWriteArrayList<>();
        server = ServletUnderTest.start(engines, "/write", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                AsyncContext async = req.startAsync();
                ServletOutputStream out = resp.getOutputStream();
                out.setWriteListener(new WriteListener() {
                    private int sent;

                    @Override
                    public void onWritePossible() throws IOException {
                        callbackThreads.add(Thread.currentThread().getName());
                        while (out.isReady()) {
                            if (sent == BODY.length) {
                                async.complete();
                                return;
                            }
                            int count = Math.min(CHUNK, BODY.length - sent);
                            out.write(BODY, sent, count);
                            sent += count;
                        }
                    }

                    @Override
                    public void onError(Throwable failure) {
                        errors.add(failure);
                        async.complete();
                    }
                });
            }
        });
        HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(server.uri("/write"))
                .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo(BODY);
        assertThat(errors).isEmpty();
        assertThat(callbackThreads).isNotEmpty()
                .noneMatch(name -> name.startsWith("sprout-" + server.port() + "-nio-"));
    }

    @Test
    void refusesAWriteListenerWithoutAsyncOrTwice() throws Exception {
        server = ServletUnderTest.start(engines, "/refuse", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                ServletOutputStream out = resp.getOutputStream();
                StringBuilder outcome = new StringBuilder();
                try {
                    out.setWriteListener(new Recorder(null));
                } catch (IllegalStateException expected) {
                    outcome.append("no-async ");
                }
                AsyncContext async = req.startAsync();
                out.setWriteListener(new Recorder(null));
                try {
                    out.setWriteListener(new Recorder(null));
                } catch (IllegalStateException expected) {
                    outcome.append("twice");
                }
                out.write(outcome.toString().getBytes(StandardCharsets.US_ASCII));
                async.complete();
            }
        });
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(server.uri("/refuse"))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.body()).isEqualTo("no-async twice");
    }

    @Test
    void aClientThatGoesAwayMidBodyIsReportedToTheWriteListenerThenTheAsyncListeners() throws Exception {
        List<String> events = new CopyOnWriteArrayList<>();
        CountDownLatch told = new CountDownLatch(3);
        server = ServletUnderTest.start(engines, "/endless", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                AsyncContext async = req.startAsync();
                async.setTimeout(0);
                async.addListener(new Recorder(events, told));
                ServletOutputStream out = resp.getOutputStream();
                out.setWriteListener(new Recorder(events, told) {
                    @Override
                    public void onWritePossible() throws IOException {
                        while (out.isReady()) {
                            out.write(BODY, 0, CHUNK);
                        }
                    }
                });
            }
        });
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", server.port()), 10_000);
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write("GET /endless HTTP/1.1\r\nHost: localhost\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            InputStream in = socket.getInputStream();
            assertThat(in.readNBytes(256 * 1024)).hasSize(256 * 1024);
            // A reset rather than a FIN: the server's next write fails at once instead of filling the buffers.
            socket.setSoLinger(true, 0);
        }
        assertThat(told.await(30, TimeUnit.SECONDS)).as("events so far: %s", events).isTrue();
        assertThat(events).containsExactly("write-error", "async-error", "async-complete");
    }

    private static byte[] randomBytes(int length) {
        byte[] bytes = new byte[length];
        new Random(11).nextBytes(bytes);
        return bytes;
    }

    /** Records the events it hears as {@code write-error}, {@code async-error}, {@code async-complete}. */
    private static class Recorder implements WriteListener, AsyncListener {

        private final List<String> events;
        private final CountDownLatch told;

        Recorder(List<String> events) {
            this(events, new CountDownLatch(0));
        }

        Recorder(List<String> events, CountDownLatch told) {
            this.events = events == null ? new CopyOnWriteArrayList<>() : events;
            this.told = told;
        }

        private void record(String event) {
            events.add(event);
            told.countDown();
        }

        @Override
        public void onWritePossible() throws IOException {
        }

        @Override
        public void onError(Throwable failure) {
            record("write-error");
        }

        @Override
        public void onComplete(AsyncEvent event) {
            record("async-complete");
        }

        @Override
        public void onTimeout(AsyncEvent event) {
            record("async-timeout");
        }

        @Override
        public void onError(AsyncEvent event) {
            record("async-error");
        }

        @Override
        public void onStartAsync(AsyncEvent event) {
        }
    }
}
