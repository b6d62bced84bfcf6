package io.sprout.boot.reactive;

import io.sprout.boot.servlet.FakeHttpRequest;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.net.URISyntaxException;

import static org.assertj.core.api.Assertions.assertThat;

/** Forwarded headers applied to a WebFlux request as Reactor Netty applies them ({@code native}). */
class ReactiveRequestOriginTest {

    @Test
    void ignoresForwardedHeadersUnlessAskedTo() throws URISyntaxException {
        FakeHttpRequest request = FakeHttpRequest.get("/a?b=1", "X-Forwarded-Proto", "https", "X-Forwarded-For",
                "203.0.113.5");

        ReactiveRequestOrigin origin = ReactiveRequestOrigin.of(request, false);

        assertThat(origin.uri()).hasToString("http://localhost:8080/a?b=1");
        assertThat(origin.remoteAddress()).isEqualTo(new InetSocketAddress("127.0.0.1", 50000));
        assertThat(origin.contextPath()).isEmpty();
    }

    @Test
    void appliesEveryXForwardedHeader() throws URISyntaxException {
        FakeHttpRequest request = FakeHttpRequest.get("/a?b=1", "X-Forwarded-Proto", "https", "X-Forwarded-Host",
                "shop.example", "X-Forwarded-Port", "8443", "X-Forwarded-For", "203.0.113.5, 10.0.0.1",
                "X-Forwarded-Prefix", "/api/");

        ReactiveRequestOrigin origin = ReactiveRequestOrigin.of(request, true);

        assertThat(origin.uri()).hasToString("https://shop.example:8443/api/a?b=1");
        assertThat(origin.contextPath()).isEqualTo("/api");
        assertThat(origin.remoteAddress().getAddress().getHostAddress()).isEqualTo("203.0.113.5");
        assertThat(origin.remoteAddress().getPort()).isEqualTo(50000);
    }

    @Test
    void keepsTheHostPortWhenOnlyTheSchemeIsForwarded() throws URISyntaxException {
        FakeHttpRequest request = FakeHttpRequest.get("/", "X-Forwarded-Proto", "https");

        assertThat(ReactiveRequestOrigin.of(request, true).uri()).hasToString("https://localhost:8080/");
    }

    @Test
    void givesAForwardedHostWithoutPortTheForwardedSchemesDefault() throws URISyntaxException {
        FakeHttpRequest request = FakeHttpRequest.get("/", "X-Forwarded-Proto", "https", "X-Forwarded-Host",
                "shop.example");

        assertThat(ReactiveRequestOrigin.of(request, true).uri()).hasToString("https://shop.example/");
    }

    @Test
    void takesForwardedOverXForwardedWithItsIpv6ClientAndPort() throws URISyntaxException {
        FakeHttpRequest request = FakeHttpRequest.get("/", "Forwarded",
                "for=\"[2001:db8::1]:4711\";proto=https;host=\"a.example:9443\"", "X-Forwarded-Host", "b.example",
                "X-Forwarded-Port", "1234", "X-Forwarded-Prefix", "/api");

        ReactiveRequestOrigin origin = ReactiveRequestOrigin.of(request, true);

        assertThat(origin.uri()).hasToString("https://a.example:9443/");
        assertThat(origin.contextPath()).isEmpty();
        assertThat(origin.remoteAddress().getAddress().getHostAddress()).isEqualTo("2001:db8:0:0:0:0:0:1");
        assertThat(origin.remoteAddress().getPort()).isEqualTo(4711);
    }

    @Test
    void bracketsAnIpv6ForwardedHost() throws URISyntaxException {
        FakeHttpRequest request = FakeHttpRequest.get("/", "X-Forwarded-Host", "2001:db8::2");

        assertThat(ReactiveRequestOrigin.of(request, true).uri()).hasToString("http://[2001:db8::2]/");
    }

    @Test
    void leavesAClientNameUnresolved() throws URISyntaxException {
        FakeHttpRequest request = FakeHttpRequest.get("/", "Forwarded", "for=unknown");

        InetSocketAddress client = ReactiveRequestOrigin.of(request, true).remoteAddress();

        assertThat(client.isUnresolved()).isTrue();
        assertThat(client.getHostString()).isEqualTo("unknown");
    }

    @Test
    void ignoresHeadersFromAnUntrustedPeer() throws URISyntaxException {
        FakeHttpRequest request = FakeHttpRequest.get("/", "X-Forwarded-Proto", "https").from("198.51.100.20", 1);

        assertThat(ReactiveRequestOrigin.of(request, true).uri()).hasToString("http://localhost:8080/");
    }
}
