package io.sprout.boot.web;

import io.sprout.engine.ServerStats;
import jakarta.servlet.Servlet;
import jakarta.servlet.ServletRegistration;
import org.springframework.boot.web.servlet.ServletContextInitializer;

import java.net.URI;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One async-supported servlet on a started Sprout server, in one engine combination. Closing it destroys the
 * server and then checks that every pooled buffer came back (the leak check).
 */
final class ServletUnderTest implements AutoCloseable {

    private final SproutWebServer webServer;

    private ServletUnderTest(SproutWebServer webServer) {
        this.webServer = webServer;
    }

    static ServletUnderTest start(Engines engines, String pattern, Servlet servlet) {
        SproutServletWebServerFactory factory = new SproutServletWebServerFactory(0);
        factory.setServerConfig(engines.config());
        ServletContextInitializer initializer = context -> {
            ServletRegistration.Dynamic registration = context.addServlet("under-test", servlet);
            registration.addMapping(pattern);
            registration.setAsyncSupported(true);
        };
        SproutWebServer webServer = (SproutWebServer) factory.getWebServer(initializer);
        webServer.start();
        return new ServletUnderTest(webServer);
    }

    SproutWebServer webServer() {
        return webServer;
    }

    int port() {
        return webServer.getPort();
    }

    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port() + path);
    }

    @Override
    public void close() {
        ServerStats stats = webServer.stats();
        webServer.destroy();
        if (stats != null) {
            assertThat(stats.buffersLeased()).as("buffers still leased after stop").isZero();
        }
    }
}
