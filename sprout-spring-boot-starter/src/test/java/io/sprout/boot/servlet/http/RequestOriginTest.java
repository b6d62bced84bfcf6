package io.sprout.boot.servlet.http;

import io.sprout.boot.servlet.FakeHttpRequest;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RequestOriginTest {

    @Test
    void takesHostAndPortFromTheHostHeader() {
        FakeHttpRequest request = FakeHttpRequest.get("/");
        request.headers().set("Host", "[::1]:9090");
        assertThat(RequestOrigin.of(request, false))
                .isEqualTo(new RequestOrigin("http", "[::1]", 9090, "127.0.0.1", 50000));
    }

    @Test
    void takesTheSchemesDefaultPortWhenTheHostHeaderNamesNone() {
        FakeHttpRequest request = FakeHttpRequest.get("/");
        request.headers().set("Host", "example.com");
        assertThat(RequestOrigin.of(request, false))
                .isEqualTo(new RequestOrigin("http", "example.com", 80, "127.0.0.1", 50000));
    }

    @Test
    void takesTheDefaultPortForAnIpv6LiteralWithoutPort() {
        FakeHttpRequest request = FakeHttpRequest.get("/");
        request.headers().set("Host", "[::1]");
        assertThat(RequestOrigin.of(request, false))
                .isEqualTo(new RequestOrigin("http", "[::1]", 80, "127.0.0.1", 50000));
    }

    @Test
    void fallsBackToTheLocalAddressAndPortWithoutHostHeader() {
        FakeHttpRequest request = FakeHttpRequest.get("/");
        request.headers().remove("Host");
        assertThat(RequestOrigin.of(request, false))
                .isEqualTo(new RequestOrigin("http", "127.0.0.1", 8080, "127.0.0.1", 50000));
    }

    @Test
    void ignoresForwardedHeadersWhenDisabled() {
        FakeHttpRequest request = FakeHttpRequest.get("/", "X-Forwarded-Proto", "https");
        assertThat(RequestOrigin.of(request, false).scheme()).isEqualTo("http");
    }

    @Test
    void trustsForwardedHeadersOnlyFromInternalProxies() {
        FakeHttpRequest fromProxy = FakeHttpRequest.get("/", "X-Forwarded-Proto", "https", "X-Forwarded-For",
                "203.0.113.5").from("10.1.2.3", 4000);
        assertThat(RequestOrigin.of(fromProxy, true))
                .isEqualTo(new RequestOrigin("https", "localhost", 443, "203.0.113.5", 4000));
        FakeHttpRequest fromInternet = FakeHttpRequest.get("/", "X-Forwarded-Proto", "https", "X-Forwarded-For",
                "203.0.113.5").from("198.51.100.20", 4000);
        assertThat(RequestOrigin.of(fromInternet, true))
                .isEqualTo(new RequestOrigin("http", "localhost", 8080, "198.51.100.20", 4000));
    }

    @Test
    void prefersForwardedOverXForwarded() {
        FakeHttpRequest request = FakeHttpRequest.get("/", "Forwarded", "for=\"[2001:db8::1]\";proto=https;host=a.example",
                "X-Forwarded-Proto", "http");
        assertThat(RequestOrigin.of(request, true))
                .isEqualTo(new RequestOrigin("https", "a.example", 443, "[2001:db8::1]", 50000));
    }

    @Test
    void usesXForwardedPortWhenGiven() {
        FakeHttpRequest request = FakeHttpRequest.get("/", "X-Forwarded-Host", "shop.example",
                "X-Forwarded-Port", "8443", "X-Forwarded-Proto", "https");
        assertThat(RequestOrigin.of(request, true).serverPort()).isEqualTo(8443);
    }

    @Test
    void keepsABareIpv6ClientAddressWhole() {
        FakeHttpRequest request = FakeHttpRequest.get("/", "X-Forwarded-For", "2001:db8::7, 10.0.0.1");
        assertThat(RequestOrigin.of(request, true).remoteAddr()).isEqualTo("2001:db8::7");
    }

    @Test
    void takesTheForwardedSchemesDefaultPortAsTomcatDoes() {
        FakeHttpRequest request = FakeHttpRequest.get("/", "X-Forwarded-Proto", "https");
        assertThat(RequestOrigin.of(request, true).serverPort()).isEqualTo(443);
    }
}
