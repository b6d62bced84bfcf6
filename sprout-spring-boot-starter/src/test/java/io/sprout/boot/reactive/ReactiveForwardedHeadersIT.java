package io.sprout.boot.reactive;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.reactive.function.server.RequestPredicates;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code server.forward-headers-strategy} in a Boot WebFlux application on Sprout, seen by an endpoint that echoes
 * {@code getURI()}, the remote address and the context path: {@code native} applies {@code Forwarded} and
 * {@code X-Forwarded-*} as Reactor Netty does, no strategy leaves them alone, and {@code framework} (Spring's
 * {@code ForwardedHeaderTransformer}) applies them once, not a second time in the server.
 */
class ReactiveForwardedHeadersIT {

    private ConfigurableApplicationContext context;

    @SpringBootConfiguration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class EchoApplication {

        /** {@code uri|remote host|remote port|context path}. */
        @Bean
        RouterFunction<ServerResponse> echo() {
            return RouterFunctions.route(RequestPredicates.GET("/echo"), request -> {
                ServerHttpRequest http = request.exchange().getRequest();
                InetSocketAddress remote = http.getRemoteAddress();
                return ServerResponse.ok().bodyValue(http.getURI() + "|" + remote.getHostString() + "|"
                        + remote.getPort() + "|" + http.getPath().contextPath().value());
            });
        }
    }

    @AfterEach
    void stop() {
        if (context != null) {
            context.close();
        }
    }

    @Test
    void nativeAppliesXForwardedHeaders() throws IOException {
        int port = start("--server.forward-headers-strategy=native");

        String[] echo = get(port, "/echo?x=1", "X-Forwarded-Proto: https", "X-Forwarded-Host: shop.example",
                "X-Forwarded-Port: 8443", "X-Forwarded-For: 203.0.113.5, 10.0.0.1", "X-Forwarded-Prefix: /api");

        assertThat(echo[0]).isEqualTo("https://shop.example:8443/api/echo?x=1");
        assertThat(echo[1]).isEqualTo("203.0.113.5");
        assertThat(echo[3]).isEqualTo("/api");
    }

    @Test
    void nativePrefersForwardedToXForwarded() throws IOException {
        int port = start("--server.forward-headers-strategy=native");

        String[] echo = get(port, "/echo", "Forwarded: for=\"[2001:db8::1]:4711\";proto=https;host=a.example",
                "X-Forwarded-Host: b.example", "X-Forwarded-Port: 1234", "X-Forwarded-For: 203.0.113.5");

        assertThat(echo[0]).isEqualTo("https://a.example/echo");
        assertThat(echo[1]).isEqualTo("2001:db8:0:0:0:0:0:1");
        assertThat(echo[2]).isEqualTo("4711");
    }

    @Test
    void ignoresForwardedHeadersWithoutAStrategy() throws IOException {
        int port = start();

        String[] echo = get(port, "/echo", "X-Forwarded-Proto: https", "X-Forwarded-Host: shop.example",
                "X-Forwarded-For: 203.0.113.5", "Forwarded: for=198.51.100.1;proto=https");

        assertThat(echo[0]).isEqualTo("http://app.internal:8080/echo");
        assertThat(echo[1]).isEqualTo("127.0.0.1");
        assertThat(echo[3]).isEmpty();
    }

    @Test
    void frameworkAppliesThemOnceThroughSpringsTransformer() throws IOException {
        int port = start("--server.forward-headers-strategy=framework");

        String[] echo = get(port, "/echo", "X-Forwarded-Proto: https", "X-Forwarded-Host: shop.example",
                "X-Forwarded-For: 203.0.113.5", "X-Forwarded-Prefix: /api");

        // Spring prefixes the path itself: had Sprout applied the prefix too, it would read /api/api/echo.
        assertThat(echo[0]).isEqualTo("https://shop.example/api/echo");
        assertThat(echo[1]).isEqualTo("203.0.113.5");
        assertThat(echo[3]).isEqualTo("/api");
    }

    private int start(String... properties) {
        String[] args = Stream.concat(Stream.of("--server.port=0", "--server.address=127.0.0.1",
                "--spring.main.banner-mode=off"), Arrays.stream(properties)).toArray(String[]::new);
        context = new SpringApplicationBuilder(EchoApplication.class).web(WebApplicationType.REACTIVE).run(args);
        return ((WebServerApplicationContext) context).getWebServer().getPort();
    }

    /** The echo's fields, after a 200; the request names {@code app.internal:8080} as its host. */
    private static String[] get(int port, String target, String... headers) throws IOException {
        String request = "GET " + target + " HTTP/1.1\r\nHost: app.internal:8080\r\nConnection: close\r\n"
                + String.join("", Arrays.stream(headers).map(h -> h + "\r\n").toList()) + "\r\n";
        try (Socket socket = new Socket("127.0.0.1", port)) {
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            String response = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertThat(response).startsWith("HTTP/1.1 200");
            return response.substring(response.indexOf("\r\n\r\n") + 4).split("\\|", -1);
        }
    }
}
