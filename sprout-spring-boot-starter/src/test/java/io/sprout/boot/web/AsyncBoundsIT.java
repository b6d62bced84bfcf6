package io.sprout.boot.web;

import io.sprout.engine.ThreadType;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ReadListener;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Asynchronous work stays within the server's bounds, and failures that end an exchange are told: an
 * {@code AsyncContext.start} task runs on one of the server's workers (named after its port) with its caller's
 * class loader, and an exception or an {@link Error} from an application callback that aborts the exchange is
 * logged at WARN with the request line.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("io.sprout.boot.web.Engines#all")
@ExtendWith(OutputCaptureExtension.class)
class AsyncBoundsIT {

    private static final Duration WAIT = Duration.ofSeconds(30);

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
    void startRunsTheTaskOnAWorkerWithTheCallersClassLoader() throws Exception {
        ClassLoader callers = new URLClassLoader(new URL[0], getClass().getClassLoader());
        CompletableFuture<Thread> ranOn = new CompletableFuture<>();
        CompletableFuture<ClassLoader> ranWith = new CompletableFuture<>();
        server = ServletUnderTest.start(engines, "/start", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) {
                AsyncContext async = req.startAsync();
                Thread thread = Thread.currentThread();
                ClassLoader previous = thread.getContextClassLoader();
                thread.setContextClassLoader(callers);
                try {
                    async.start(() -> {
                        ranOn.complete(Thread.currentThread());
                        ranWith.complete(Thread.currentThread().getContextClassLoader());
                        async.complete();
                    });
                } finally {
                    thread.setContextClassLoader(previous);
                }
            }
        });

        assertThat(get("/start").statusCode()).isEqualTo(200);

        Thread worker = ranOn.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        if (engines.threads() == ThreadType.PLATFORM) {
            assertThat(worker.getName()).matches("sprout-" + server.port() + "-worker-\\d+");
        } else {
            // A virtual worker of the server's: unnamed, as every virtual worker is.
            assertThat(worker.isVirtual()).isTrue();
            assertThat(worker.getName()).isEmpty();
        }
        assertThat(ranWith.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isSameAs(callers);
    }

    @Test
    void anErrorFromAnAsyncListenerIsLoggedAtWarnWithTheRequestLine(CapturedOutput output) throws Exception {
        server = ServletUnderTest.start(engines, "/listener", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) {
                AsyncContext async = req.startAsync();
                async.addListener(new Listener() {
                    @Override
                    public void onComplete(AsyncEvent event) {
                        throw new AssertionError("listener broke");
                    }
                });
                async.complete();
            }
        });

        try {
            get("/listener?q=1");
        } catch (IOException aborted) {
            // The failure aborts the connection, which may come before the response.
        }

        // Logged before the abort that the client saw.
        assertThat(output.getOut()).containsPattern("WARN .* The exchange of GET /listener failed")
                .contains("listener broke");
    }

    @Test
    void aFailingReadListenerIsLoggedAtWarnWithTheRequestLine(CapturedOutput output) throws Exception {
        CountDownLatch errorHeard = new CountDownLatch(1);
        server = ServletUnderTest.start(engines, "/read", new HttpServlet() {
            @Override
            protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                AsyncContext async = req.startAsync();
                async.setTimeout(0);
                async.addListener(new Listener() {
                    @Override
                    public void onError(AsyncEvent event) {
                        errorHeard.countDown();
                    }
                });
                req.getInputStream().setReadListener(new ReadListener() {
                    @Override
                    public void onDataAvailable() {
                        throw new IllegalStateException("reader broke");
                    }

                    @Override
                    public void onAllDataRead() {
                    }

                    @Override
                    public void onError(Throwable failure) {
                    }
                });
            }
        });

        try {
            client.send(HttpRequest.newBuilder(server.uri("/read")).timeout(WAIT)
                    .POST(HttpRequest.BodyPublishers.ofString("body")).build(), HttpResponse.BodyHandlers.discarding());
        } catch (IOException aborted) {
            // Expected: the failing callback aborts the connection.
        }

        // The async listeners hear onError after the container has logged the failure.
        assertThat(errorHeard.await(WAIT.toSeconds(), TimeUnit.SECONDS)).as("onError heard").isTrue();
        assertThat(output.getOut()).containsPattern("WARN .* The exchange of POST /read failed")
                .contains("reader broke");
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(server.uri(path)).timeout(WAIT).build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    /** An {@link AsyncListener} that ignores what a test does not override. */
    private abstract static class Listener implements AsyncListener {

        @Override
        public void onComplete(AsyncEvent event) {
        }

        @Override
        public void onTimeout(AsyncEvent event) {
        }

        @Override
        public void onError(AsyncEvent event) {
        }

        @Override
        public void onStartAsync(AsyncEvent event) {
        }
    }
}
