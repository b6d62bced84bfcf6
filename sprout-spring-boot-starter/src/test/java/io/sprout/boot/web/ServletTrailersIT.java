package io.sprout.boot.web;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Servlet 6.1 trailer fields over real sockets in every combination: a response's {@code setTrailerFields} ends a
 * chunked HTTP/1.1 body with them (and is refused for HTTP/1.0), and a request's trailers are read once its body
 * has been, with {@code isTrailerFieldsReady} saying when.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("io.sprout.boot.web.Engines#all")
class ServletTrailersIT {

    @Parameter
    Engines engines;

    private SproutWebServer webServer;

    @AfterEach
    void stop() {
        if (webServer != null) {
            webServer.destroy();
        }
    }

    private void start() {
        SproutServletWebServerFactory factory = new SproutServletWebServerFactory(0);
        factory.setServerConfig(engines.config());
        webServer = (SproutWebServer) factory.getWebServer(context -> {
            context.addServlet("trailers", new TrailersServlet()).addMapping("/trailers");
        });
        webServer.start();
    }

    @Test
    void sendsResponseTrailersAfterAChunkedBody() throws IOException {
        start();
        String response = exchange("GET /trailers HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
        assertThat(response).contains("Transfer-Encoding: chunked")
                .endsWith("\r\n0\r\nx-checksum: 42\r\nx-supplied: yes\r\n\r\n");
        assertThat(response).contains("supplier set=true");
    }

    @Test
    void refusesResponseTrailersOverHttp10() throws IOException {
        start();
        String response = exchange("GET /trailers HTTP/1.0\r\n\r\n");
        assertThat(response).contains("refused: An HTTP/1.0 response cannot carry trailer fields");
    }

    @Test
    void readsRequestTrailersOnceTheBodyIsRead() throws IOException {
        start();
        String response = exchange("POST /trailers HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nX-Sum: 7\r\n\r\n");
        assertThat(response).contains("before=false", "body=abc", "after=true", "trailers={x-sum=7}");
    }

    private String exchange(String request) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), webServer.getPort())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            in.transferTo(all);
            return all.toString(StandardCharsets.ISO_8859_1);
        }
    }

    private static final class TrailersServlet extends HttpServlet {

        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            response.setContentType("text/plain");
            try {
                response.setTrailerFields(() -> Map.of("x-checksum", "42"));
                response.setTrailerFields(() -> new TreeMap<>(Map.of("x-checksum", "42", "x-supplied",
                        "yes")));
            } catch (IllegalStateException refused) {
                response.getWriter().print("refused: " + refused.getMessage());
                return;
            }
            response.getWriter().print("supplier set=" + (response.getTrailerFields() != null));
        }

        @Override
        protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
            boolean before = request.isTrailerFieldsReady();
            String body = new String(request.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            response.setContentType("text/plain");
            response.getWriter().print("before=" + before + " body=" + body + " after="
                    + request.isTrailerFieldsReady() + " trailers=" + request.getTrailerFields());
        }
    }
}
