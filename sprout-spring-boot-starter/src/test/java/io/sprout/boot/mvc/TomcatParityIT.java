package io.sprout.boot.mvc;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.sprout.boot.mvcapp.MvcTestApplication;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where third-party applications saw Sprout answer differently from Tomcat 11 (issue 19), checked as raw bytes over
 * a socket against a Spring MVC application. The expected answers are Tomcat's, taken from the same application on
 * Tomcat 11.0 with Boot 4.1's defaults.
 */
@SpringBootTest(classes = MvcTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class TomcatParityIT {

    @LocalServerPort
    int port;

    /** Sends a raw request head with {@code Connection: close} and returns the whole answer. */
    private String exchange(String requestLine, String... headers) throws IOException {
        StringBuilder head = new StringBuilder(requestLine).append("\r\n");
        for (String header : headers) {
            head.append(header).append("\r\n");
        }
        if (requestLine.endsWith("HTTP/1.1")) {
            head.append("Connection: close\r\n");
        }
        head.append("\r\n");
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(15_000);
            socket.getOutputStream().write(head.toString().getBytes(StandardCharsets.US_ASCII));
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    private static String body(String answer) {
        return answer.substring(answer.indexOf("\r\n\r\n") + 4);
    }

    @Test
    void refusesTraceWith405AndAllowThroughTheErrorPageBeforeFiltersRun() throws IOException {
        String answer = exchange("TRACE /api/greeting HTTP/1.1", "Host: example.com", "X-Custom: secret");

        assertThat(answer).startsWith("HTTP/1.1 405 ")
                .contains("\r\nAllow: GET, HEAD, POST, PUT, DELETE, OPTIONS\r\n")
                .contains("\r\nContent-Type: application/json\r\n")
                .doesNotContain("message/http").doesNotContain("secret")
                .doesNotContainIgnoringCase("X-Sprout-Filter");
        assertThat(body(answer)).contains("\"status\":405").contains("\"error\":\"Method Not Allowed\"")
                .contains("\"path\":\"/api/greeting\"");
    }

    @Test
    void leavesTheBodyEmptyWhenTheErrorPageItselfIsDenied() throws IOException {
        String answer = exchange("GET /secure/area HTTP/1.1", "Host: example.com");

        assertThat(answer).startsWith("HTTP/1.1 401 ")
                .contains("\r\nWWW-Authenticate: Basic realm=\"Realm\"\r\n")
                .contains("\r\nContent-Length: 0\r\n")
                .doesNotContainIgnoringCase("Content-Type");
        assertThat(body(answer)).isEmpty();
    }

    @Test
    void rendersABareSendErrorThroughBootsErrorPage() throws IOException {
        String answer = exchange("GET /api/unauthorized HTTP/1.1", "Host: example.com", "Accept: application/json");

        assertThat(answer).startsWith("HTTP/1.1 401 ").contains("\r\nContent-Type: application/json\r\n");
        assertThat(body(answer)).contains("\"status\":401").contains("\"error\":\"Unauthorized\"")
                .contains("\"path\":\"/api/unauthorized\"");
    }

    @Test
    void logsAnUncaughtExceptionUnderTheServletWithItsRootCause() throws IOException {
        Logger servletLogger = (Logger) LoggerFactory.getLogger("io.sprout.boot.servlet.[/].[dispatcherServlet]");
        ListAppender<ILoggingEvent> events = new ListAppender<>();
        events.start();
        servletLogger.addAppender(events);
        try {
            assertThat(exchange("GET /api/boom HTTP/1.1", "Host: example.com")).startsWith("HTTP/1.1 500 ");
        } finally {
            servletLogger.detachAppender(events);
        }

        assertThat(events.list).singleElement().satisfies(event -> {
            assertThat(event.getLevel()).hasToString("ERROR");
            assertThat(event.getFormattedMessage()).isEqualTo("Servlet.service() for servlet [dispatcherServlet] in "
                    + "context with path [] threw exception [Request processing failed: "
                    + "java.lang.IllegalStateException: boom] for request [GET /api/boom] with root cause");
            assertThat(event.getThrowableProxy().getClassName()).isEqualTo("java.lang.IllegalStateException");
            assertThat(event.getThrowableProxy().getMessage()).isEqualTo("boom");
            assertThat(event.getThrowableProxy().getCause()).isNull();
        });
    }

    @Test
    void redirectsWithoutPortWhenTheHostHeaderNamesNone() throws IOException {
        assertThat(exchange("GET /owners/new HTTP/1.1", "Host: example.com"))
                .startsWith("HTTP/1.1 302 ").contains("\r\nLocation: http://example.com/owners/11\r\n");
    }

    @Test
    void redirectsWithThePortTheHostHeaderNames() throws IOException {
        assertThat(exchange("GET /owners/new HTTP/1.1", "Host: example.com:8080"))
                .contains("\r\nLocation: http://example.com:8080/owners/11\r\n");
    }

    @Test
    void redirectsToAnIpv6LiteralHostWithAndWithoutPort() throws IOException {
        assertThat(exchange("GET /owners/new HTTP/1.1", "Host: [::1]"))
                .contains("\r\nLocation: http://[::1]/owners/11\r\n");
        assertThat(exchange("GET /api/relative-redirect HTTP/1.1", "Host: [::1]:8080"))
                .contains("\r\nLocation: http://[::1]:8080/api/next\r\n");
    }

    @Test
    void reportsTheSchemesDefaultPortWhenTheHostHeaderNamesNone() throws IOException {
        assertThat(body(exchange("GET /api/origin HTTP/1.1", "Host: example.com")))
                .isEqualTo("http|example.com|80|http://example.com/api/origin");
        assertThat(body(exchange("GET /api/origin HTTP/1.1", "Host: example.com:80")))
                .isEqualTo("http|example.com|80|http://example.com/api/origin");
    }

    @Test
    void reportsTheConnectorsAddressAndPortWithoutHostHeader() throws IOException {
        assertThat(body(exchange("GET /api/origin HTTP/1.0")))
                .isEqualTo("http|127.0.0.1|" + port + "|http://127.0.0.1:" + port + "/api/origin");
    }
}
