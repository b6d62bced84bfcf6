package io.sprout.boot.web;

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
import org.springframework.boot.web.server.PortInUseException;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.List;
import java.util.Locale;

import static io.sprout.boot.web.WebServerUnderTest.factory;
import static io.sprout.boot.web.WebServerUnderTest.servlet;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Listening on more than one port ({@link SproutServletWebServerFactory#addAdditionalPorts}, Sprout's answer to
 * Tomcat's additional connectors): every port serves the same context, a clash on any port is Boot's
 * {@link PortInUseException} naming that port, and the started line lists them all.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("io.sprout.boot.web.Engines#all")
@ExtendWith(OutputCaptureExtension.class)
class AdditionalPortsIT {

    @Parameter
    Engines engines;

    private WebServerUnderTest server;
    private SproutWebServer unstarted;

    @AfterEach
    void destroy() {
        if (server != null) {
            server.close();
        }
        if (unstarted != null) {
            unstarted.destroy();
        }
    }

    private static HttpServlet localPort() {
        return new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                resp.getWriter().print("served on " + req.getLocalPort());
            }
        };
    }

    @Test
    void servesTheSameContextOnEveryPort() {
        SproutServletWebServerFactory factory = factory(engines);
        factory.addAdditionalPorts(0, 0);
        server = WebServerUnderTest.start(factory, servlet("/where", localPort()));
        List<Integer> ports = server.webServer().getPorts();
        assertThat(ports).hasSize(3).doesNotHaveDuplicates();
        assertThat(ports.getFirst()).isEqualTo(server.port());
        for (int port : ports) {
            assertThat(server.send(server.request(port, "/where")).body()).isEqualTo("served on " + port);
        }
    }

    @Test
    void aTakenAdditionalPortIsPortInUseExceptionNamingIt() throws IOException {
        try (ServerSocket taken = new ServerSocket(0)) {
            SproutServletWebServerFactory factory = factory(engines);
            factory.addAdditionalPorts(0, taken.getLocalPort());
            unstarted = (SproutWebServer) factory.getWebServer();
            assertThatExceptionOfType(PortInUseException.class).isThrownBy(unstarted::start)
                    .satisfies(e -> assertThat(e.getPort()).isEqualTo(taken.getLocalPort()));
            assertThat(unstarted.getPorts()).isEmpty();
            assertThat(unstarted.getPort()).isEqualTo(-1);
        }
    }

    @Test
    void aTakenMainPortIsPortInUseExceptionNamingIt() throws IOException {
        try (ServerSocket taken = new ServerSocket(0)) {
            SproutServletWebServerFactory factory = factory(engines);
            factory.setPort(taken.getLocalPort());
            factory.addAdditionalPorts(0);
            unstarted = (SproutWebServer) factory.getWebServer();
            assertThatExceptionOfType(PortInUseException.class).isThrownBy(unstarted::start)
                    .satisfies(e -> assertThat(e.getPort()).isEqualTo(taken.getLocalPort()));
        }
    }

    @Test
    void theStartedLineListsEveryPortAndTheEngine(CapturedOutput output) {
        SproutServletWebServerFactory factory = factory(engines);
        factory.addAdditionalPorts(0);
        factory.setContextPath("/shop");
        server = WebServerUnderTest.start(factory, servlet("/where", localPort()));
        List<Integer> ports = server.webServer().getPorts();
        assertThat(output).contains("Sprout started on ports " + ports.get(0) + " (http), " + ports.get(1)
                + " (http) with context path '/shop' \u2014 " + expectedEngine());
    }

    @Test
    void stopAndStartListenOnEveryPortAgain() {
        SproutServletWebServerFactory factory = factory(engines);
        factory.addAdditionalPorts(0);
        server = WebServerUnderTest.start(factory, servlet("/where", localPort()));
        server.webServer().stop();
        assertThat(server.webServer().getPorts()).isEmpty();
        server.webServer().start();
        List<Integer> ports = server.webServer().getPorts();
        assertThat(ports).hasSize(2);
        assertThat(server.send(server.request(ports.get(1), "/where")).body()).isEqualTo("served on " + ports.get(1));
    }

    /** What the engine combination of this run looks like in the started line; the test engine has 16 workers. */
    private String expectedEngine() {
        String mode = engines.mode().name().toLowerCase(Locale.ROOT);
        return switch (engines.threads()) {
            case PLATFORM -> mode + ", platform threads, 16 workers";
            case VIRTUAL -> mode + ", virtual threads";
        };
    }
}
