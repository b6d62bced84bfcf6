package io.sprout.boot.reactive;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import java.io.IOException;
import java.util.Arrays;
import java.util.stream.Stream;

import static io.sprout.boot.reactive.ForwardedEcho.get;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code server.forward-headers-strategy} in a Boot WebFlux application on Sprout, seen by an endpoint that echoes
 * {@code getURI()}, the remote address and the context path: {@code native} applies {@code Forwarded} and
 * {@code X-Forwarded-*} as Reactor Netty does, no strategy leaves them alone, and {@code framework} (Spring's
 * {@code ForwardedHeaderTransformer}) applies them once, not a second time in the server.
 */
class ReactiveForwardedHeadersIT {

    private ConfigurableApplicationContext context;

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
        assertThat(echo[2]).isEqualTo("socket");
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
        assertThat(echo[2]).isEqualTo("socket");
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
        context = new SpringApplicationBuilder(ForwardedEcho.Application.class).web(WebApplicationType.REACTIVE)
                .run(args);
        return ((WebServerApplicationContext) context).getWebServer().getPort();
    }
}
