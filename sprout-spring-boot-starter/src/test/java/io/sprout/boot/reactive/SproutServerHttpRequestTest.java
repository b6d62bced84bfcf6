package io.sprout.boot.reactive;

import io.sprout.engine.AsyncExchange;
import io.sprout.engine.Headers;
import io.sprout.engine.HttpRequest;
import io.sprout.engine.TlsDetails;
import io.sprout.engine.server.Sprout;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpCookie;
import org.springframework.http.server.reactive.SslInfo;

import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** What Spring sees of an engine request: its URI, cookies, TLS details and headers. */
class SproutServerHttpRequestTest {

    private static final InetSocketAddress LOCAL = new InetSocketAddress("127.0.0.1", 8443);

    @Test
    void buildsTheUriFromTheSchemeTheHostFieldAndTheRawTarget() throws URISyntaxException {
        Headers headers = Sprout.headers().add("Host", "example.com:8080");

        URI uri = ReactiveRequestOrigin.of(new EngineRequest("/a%20b/c", "x=1&y=%2F", headers, null, LOCAL), false)
                .uri();

        assertThat(uri).hasToString("http://example.com:8080/a%20b/c?x=1&y=%2F");
        assertThat(uri.getPath()).isEqualTo("/a b/c");
    }

    @Test
    void namesTheLocalAddressWhenTheClientSentNoHost() throws URISyntaxException {
        EngineRequest http10 = new EngineRequest("/", null, Sprout.headers(), null,
                new InetSocketAddress("::1", 8080));

        assertThat(ReactiveRequestOrigin.of(http10, false).uri()).hasToString("http://[0:0:0:0:0:0:0:1]:8080/");
    }

    @Test
    void refusesAHostThatMakesNoUri() {
        EngineRequest request = new EngineRequest("/", null, Sprout.headers().add("Host", "bad host"), null, LOCAL);

        assertThatExceptionOfType(URISyntaxException.class).isThrownBy(() -> ReactiveRequestOrigin.of(request, false));
    }

    @Test
    void parsesEveryCookieFieldInOrder() throws URISyntaxException {
        Headers headers = Sprout.headers().add("Cookie", "a=1; b= two ;c=").add("Cookie", "a=3;=nameless;novalue");

        var cookies = request(headers, null).getCookies();

        assertThat(cookies.get("a")).extracting(HttpCookie::getValue).containsExactly("1", "3");
        assertThat(cookies.getFirst("b").getValue()).isEqualTo("two");
        assertThat(cookies.getFirst("c").getValue()).isEmpty();
        assertThat(cookies).containsOnlyKeys("a", "b", "c");
    }

    @Test
    void exposesTheTlsSessionAndTheClientsCertificatesOverHttpsOnly() throws URISyntaxException {
        TlsDetails tls = new TlsDetails("TLSv1.3", "TLS_AES_128_GCM_SHA256", 128, "0a1b", List.of(), "http/1.1",
                null);

        SslInfo info = request(Sprout.headers(), tls).getSslInfo();

        assertThat(info).isNotNull();
        assertThat(info.getSessionId()).isEqualTo("0a1b");
        assertThat(info.getPeerCertificates()).isEmpty();
        assertThat(request(Sprout.headers(), null).getSslInfo()).isNull();
        assertThat(request(Sprout.headers(), tls).getURI().getScheme()).isEqualTo("https");
    }

    @Test
    void hasTheIdTheAdapterGaveIt() throws URISyntaxException {
        assertThat(request(Sprout.headers().add("Host", "example.com"), null).getId()).isEqualTo("7");
    }

    @Test
    void readsTheEnginesHeadersAsTheyAre() throws URISyntaxException {
        Headers headers = Sprout.headers().add("Accept", "text/html").add("accept", "application/json");

        SproutServerHttpRequest request = request(headers, null);
        headers.add("X-Late", "still seen");

        assertThat(request.getHeaders().get("ACCEPT")).containsExactly("text/html", "application/json");
        assertThat(request.getHeaders().getFirst("x-late")).isEqualTo("still seen");
        assertThat(request.<HttpRequest>getNativeRequest().headers()).isSameAs(headers);
    }

    private static SproutServerHttpRequest request(Headers headers, TlsDetails tls) throws URISyntaxException {
        EngineRequest engine = new EngineRequest("/", null, headers, tls, LOCAL);
        return new SproutServerHttpRequest("7", engine, ReactiveRequestOrigin.of(engine, false), null,
                DefaultDataBufferFactory.sharedInstance, 1024);
    }

    /** An engine request that has a head and nothing else: these tests read no body and start no exchange. */
    private record EngineRequest(String path, String query, Headers headers, TlsDetails tls,
            InetSocketAddress localAddress) implements HttpRequest {

        @Override
        public String method() {
            return "GET";
        }

        @Override
        public String target() {
            return query == null ? path : path + "?" + query;
        }

        @Override
        public String protocol() {
            return "HTTP/1.1";
        }

        @Override
        public long contentLength() {
            return 0;
        }

        @Override
        public InputStream body() {
            return InputStream.nullInputStream();
        }

        @Override
        public Headers trailers() {
            return Sprout.headers();
        }

        @Override
        public AsyncExchange startAsync() {
            throw new IllegalStateException("not in these tests");
        }

        @Override
        public AsyncExchange asyncExchange() {
            return null;
        }

        @Override
        public InetSocketAddress remoteAddress() {
            return new InetSocketAddress("127.0.0.1", 50000);
        }
    }
}
