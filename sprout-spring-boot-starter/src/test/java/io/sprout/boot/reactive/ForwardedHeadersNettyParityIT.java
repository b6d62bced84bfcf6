package io.sprout.boot.reactive;

import io.sprout.boot.web.ReactorNettyReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.reactor.netty.NettyReactiveWebServerFactory;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code server.forward-headers-strategy=native} on Sprout against the reference it mirrors: the same echo
 * application on Reactor Netty with {@code forwarded(true)}, which Boot sets for {@code native}. Each case sends the
 * same headers to both and expects the same URI, client address and context path. Not compared: malformed values
 * (Netty answers 400, Sprout ignores them) and untrusted peers (Netty trusts every peer), both documented
 * differences; every request here comes from loopback.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ForwardedHeadersNettyParityIT {

    private ConfigurableApplicationContext netty;
    private ConfigurableApplicationContext sprout;

    /** What Boot's Netty customizer does for {@code native}; set here so the reference does not hang on that. */
    @Configuration(proxyBeanMethods = false)
    static class NettyForwardHeaders {

        @Bean
        WebServerFactoryCustomizer<NettyReactiveWebServerFactory> useForwardHeaders() {
            return factory -> factory.setUseForwardHeaders(true);
        }
    }

    @BeforeAll
    void start() {
        netty = run(ForwardedEcho.Application.class, ReactorNettyReference.class, NettyForwardHeaders.class);
        sprout = run(ForwardedEcho.Application.class);
        assertThat(webServer(netty).getClass().getSimpleName()).isEqualTo("NettyWebServer");
        assertThat(webServer(sprout).getClass().getSimpleName()).isEqualTo("SproutWebServer");
    }

    @AfterAll
    void stop() {
        if (sprout != null) {
            sprout.close();
        }
        if (netty != null) {
            netty.close();
        }
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                headers(),
                headers("X-Forwarded-Proto: https"),
                headers("X-Forwarded-Proto: https, http", "X-Forwarded-Host: shop.example, inner.example"),
                headers("X-Forwarded-Host: shop.example:9000", "X-Forwarded-Port: 8443"),
                headers("X-Forwarded-Proto: https", "X-Forwarded-Port: 443"),
                headers("X-Forwarded-For: 203.0.113.5, 10.0.0.1"),
                headers("X-Forwarded-For: 203.0.113.5:4711"),
                headers("X-Forwarded-For: 2001:db8::7"),
                headers("X-Forwarded-Prefix: /api"),
                headers("X-Forwarded-Prefix: /api/, /v1/"),
                headers("Forwarded: for=\"[2001:db8::1]:4711\";proto=https;host=a.example",
                        "X-Forwarded-Host: b.example", "X-Forwarded-Port: 1234", "X-Forwarded-Prefix: /api"),
                headers("Forwarded: host=a.example:9443, host=b.example"),
                headers("Forwarded: for=192.0.2.60;proto=http;by=203.0.113.43"),
                headers("Forwarded: for=unknown"));
    }

    @ParameterizedTest
    @MethodSource("cases")
    void appliesForwardedHeadersAsReactorNettyDoes(String[] headers) throws IOException {
        String[] onNetty = ForwardedEcho.get(webServer(netty).getPort(), "/echo?q=1", headers);
        String[] onSprout = ForwardedEcho.get(webServer(sprout).getPort(), "/echo?q=1", headers);

        assertThat(onSprout).containsExactly(onNetty);
    }

    /**
     * An IPv6 forwarded host: Netty resolves the literal and writes the address out in full
     * ({@code [2001:db8:0:0:0:0:0:2]}), though it keeps a {@code Host} field's {@code [2001:db8::2]} as written;
     * Sprout keeps the proxy's spelling in both cases. The same address, so a deliberate difference of form only.
     */
    @Test
    void writesAForwardedIpv6HostAsTheProxyDidWhereNettyExpandsIt() throws IOException {
        String header = "X-Forwarded-Host: [2001:db8::2]:9000";
        String onNetty = ForwardedEcho.get(webServer(netty).getPort(), "/echo", header)[0];
        String onSprout = ForwardedEcho.get(webServer(sprout).getPort(), "/echo", header)[0];

        assertThat(onNetty).isEqualTo("http://[2001:db8:0:0:0:0:0:2]:9000/echo");
        assertThat(onSprout).isEqualTo("http://[2001:db8::2]:9000/echo");
        // Literals, so parsed and never looked up.
        assertThat(InetAddress.getByName(URI.create(onSprout).getHost()))
                .isEqualTo(InetAddress.getByName(URI.create(onNetty).getHost()));
    }

    private static Arguments headers(String... headers) {
        return Arguments.of((Object) headers);
    }

    private static ConfigurableApplicationContext run(Class<?>... sources) {
        return new SpringApplicationBuilder(sources).web(WebApplicationType.REACTIVE)
                .run("--server.port=0", "--server.address=127.0.0.1", "--spring.main.banner-mode=off",
                        "--spring.main.register-shutdown-hook=false", "--server.forward-headers-strategy=native");
    }

    private static WebServer webServer(ConfigurableApplicationContext context) {
        return ((WebServerApplicationContext) context).getWebServer();
    }
}
