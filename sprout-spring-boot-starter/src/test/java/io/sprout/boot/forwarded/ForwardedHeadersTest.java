package io.sprout.boot.forwarded;

import io.sprout.boot.servlet.FakeHttpRequest;
import io.sprout.engine.Headers;
import io.sprout.engine.server.Sprout;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ForwardedHeadersTest {

    @Test
    void readsTheFirstElementOfForwarded() {
        ForwardedHeaders forwarded = parse("Forwarded",
                "For=\"[2001:db8::1]:4711\"; proto=HTTPS;host=a.example, for=198.51.100.1;proto=http");

        assertThat(forwarded).isEqualTo(new ForwardedHeaders("https", new HostAndPort("a.example", -1), -1,
                new HostAndPort("[2001:db8::1]", 4711), null));
    }

    @Test
    void ignoresEveryXForwardedHeaderWhenForwardedIsPresent() {
        ForwardedHeaders forwarded = parse("Forwarded", "for=192.0.2.60", "X-Forwarded-Proto", "https",
                "X-Forwarded-Host", "b.example", "X-Forwarded-Port", "8443", "X-Forwarded-Prefix", "/api");

        assertThat(forwarded).isEqualTo(new ForwardedHeaders(null, null, -1, new HostAndPort("192.0.2.60", -1), null));
    }

    @Test
    void readsTheFirstValueOfEachXForwardedList() {
        ForwardedHeaders forwarded = parse("X-Forwarded-Proto", "https, http", "X-Forwarded-Host",
                " shop.example:8443 , inner", "X-Forwarded-Port", "9443, 80", "X-Forwarded-For",
                "203.0.113.5, 10.0.0.1");

        assertThat(forwarded).isEqualTo(new ForwardedHeaders("https", new HostAndPort("shop.example", 8443), 9443,
                new HostAndPort("203.0.113.5", -1), null));
    }

    @Test
    void takesABareIpv6ClientAddressWhole() {
        assertThat(parse("X-Forwarded-For", "2001:db8::7").client()).isEqualTo(new HostAndPort("2001:db8::7", -1));
        assertThat(parse("X-Forwarded-For", "[2001:db8::7]:99").client())
                .isEqualTo(new HostAndPort("[2001:db8::7]", 99));
    }

    @Test
    void joinsPrefixValuesWithoutTrailingSlashes() {
        assertThat(parse("X-Forwarded-Prefix", "/a/, /b//").prefix()).isEqualTo("/a/b");
        assertThat(parse("X-Forwarded-Prefix", "/").prefix()).isNull();
        assertThat(parse("X-Forwarded-Prefix", "api").prefix()).isNull();
    }

    @Test
    void ignoresValuesThatAreNotASchemeOrAPort() {
        ForwardedHeaders forwarded = parse("X-Forwarded-Proto", "ht tp", "X-Forwarded-Port", "84x3",
                "X-Forwarded-Host", "h.example:abc");

        assertThat(forwarded).isEqualTo(new ForwardedHeaders(null, new HostAndPort("h.example", -1), -1, null, null));
    }

    @Test
    void isEmptyWithoutForwardedHeaders() {
        assertThat(parse("X-Forwarded-For", " ").isEmpty()).isTrue();
        assertThat(parse("Accept", "*/*")).isEqualTo(ForwardedHeaders.NONE);
    }

    @Test
    void trustsOnlyLoopbackAndPrivateNetworkPeers() {
        String[] headers = {"X-Forwarded-Proto", "https"};
        assertThat(ForwardedHeaders.fromTrustedProxy(FakeHttpRequest.get("/", headers).from("10.1.2.3", 1))
                .proto()).isEqualTo("https");
        assertThat(ForwardedHeaders.fromTrustedProxy(FakeHttpRequest.get("/", headers).from("fe80::1", 1))
                .proto()).isEqualTo("https");
        assertThat(ForwardedHeaders.fromTrustedProxy(FakeHttpRequest.get("/", headers).from("198.51.100.20", 1)))
                .isEqualTo(ForwardedHeaders.NONE);
    }

    private static ForwardedHeaders parse(String... pairs) {
        Headers headers = Sprout.headers();
        for (int i = 0; i < pairs.length; i += 2) {
            headers.add(pairs[i], pairs[i + 1]);
        }
        return ForwardedHeaders.parse(headers);
    }
}
