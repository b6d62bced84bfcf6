package io.sprout.boot.web;

import io.sprout.engine.ThreadType;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Asynchronous work stays within the server's bounds: an {@code AsyncContext.start} task runs on one of the
 * server's workers (named after its port) with its caller's class loader.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("io.sprout.boot.web.Engines#all")
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

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(server.uri(path)).timeout(WAIT).build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }
}
