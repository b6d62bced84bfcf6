package io.sprout.boot.web;

import io.sprout.engine.ServerStats;
import jakarta.servlet.Servlet;
import jakarta.servlet.ServletRegistration;
import org.springframework.boot.web.servlet.ServletContextInitializer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A started Sprout web server for one test, with an HTTP client aimed at it. Closing it destroys the server and
 * then checks that every pooled buffer came back (the leak check every server test ends with).
 */
final class WebServerUnderTest implements AutoCloseable {

    private final SproutWebServer webServer;
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private WebServerUnderTest(SproutWebServer webServer) {
        this.webServer = webServer;
    }

    /** A factory on an ephemeral port with a small engine in the given combination. */
    static SproutServletWebServerFactory factory(Engines engines) {
        SproutServletWebServerFactory factory = new SproutServletWebServerFactory(0);
        factory.setServerConfig(engines.config());
        return factory;
    }

    static WebServerUnderTest start(SproutServletWebServerFactory factory, ServletContextInitializer... initializers) {
        SproutWebServer webServer = (SproutWebServer) factory.getWebServer(initializers);
        webServer.start();
        return new WebServerUnderTest(webServer);
    }

    /** Registers an async-supported servlet under a pattern, named after the pattern. */
    static ServletContextInitializer servlet(String pattern, Servlet servlet) {
        return context -> {
            ServletRegistration.Dynamic registration = context.addServlet(pattern + "-servlet", servlet);
            registration.addMapping(pattern);
            registration.setAsyncSupported(true);
        };
    }

    SproutWebServer webServer() {
        return webServer;
    }

    int port() {
        return webServer.getPort();
    }

    HttpRequest.Builder request(String path, String... headers) {
        return request(port(), path, headers);
    }

    HttpRequest.Builder request(int port, String path, String... headers) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30));
        if (headers.length > 0) {
            builder.headers(headers);
        }
        return builder;
    }

    HttpResponse<String> get(String path, String... headers) {
        return send(request(path, headers));
    }

    HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return client.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    HttpResponse<byte[]> sendForBytes(HttpRequest.Builder request) {
        try {
            return client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        client.shutdownNow();
        ServerStats stats = webServer.stats();
        webServer.destroy();
        if (stats != null) {
            assertThat(stats.buffersLeased()).as("buffers still leased after stop").isZero();
        }
    }
}
