package io.sprout.boot.reactive;

import io.sprout.engine.AsyncExchange;
import io.sprout.engine.HttpRequest;
import io.sprout.engine.TlsDetails;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.http.HttpCookie;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.reactive.AbstractServerHttpRequest;
import org.springframework.http.server.reactive.SslInfo;
import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;
import reactor.core.publisher.Flux;

import java.net.InetSocketAddress;
import java.security.cert.X509Certificate;

/**
 * An engine {@link HttpRequest} as Spring's {@code ServerHttpRequest}: the URI as the client addressed it and the
 * client's address ({@link ReactiveRequestOrigin}: through a proxy too, under {@code native} forwarded headers), the
 * engine's headers through a live adapter, cookies parsed from the {@code Cookie} fields, TLS details as
 * {@link SslInfo}, and the body as a {@link RequestBodyPublisher} that reads only on demand.
 */
final class SproutServerHttpRequest extends AbstractServerHttpRequest {

    private final HttpRequest request;
    private final InetSocketAddress remoteAddress;
    private final String id;
    private final RequestBodyPublisher body;

    /**
     * @param id the request's {@link #getId()}, unique in the server (see {@link #initId()})
     * @param chunkSize the most bytes one body {@link DataBuffer} holds
     */
    SproutServerHttpRequest(String id, HttpRequest request, ReactiveRequestOrigin origin, AsyncExchange exchange,
            DataBufferFactory bufferFactory, int chunkSize) {
        super(HttpMethod.valueOf(request.method()), origin.uri(), origin.contextPath(),
                new HttpHeaders(new SproutHeadersAdapter(request.headers())));
        this.request = request;
        this.remoteAddress = origin.remoteAddress();
        this.id = id;
        this.body = new RequestBodyPublisher(exchange, request.body(), bufferFactory, chunkSize,
                "[" + getId() + "] ");
    }

    /**
     * The server's count of requests: Spring's default, the object's identity hash, repeats among thousands of live
     * requests, and an id is also a WebSocket session's id, which applications key maps by.
     */
    @Override
    protected String initId() {
        return id;
    }

    @Override
    protected MultiValueMap<String, HttpCookie> initCookies() {
        MultiValueMap<String, HttpCookie> cookies = new LinkedMultiValueMap<>();
        for (String field : request.headers().all(HttpHeaders.COOKIE)) {
            for (String pair : field.split(";")) {
                int equals = pair.indexOf('=');
                String name = (equals < 0 ? pair : pair.substring(0, equals)).strip();
                if (equals > 0 && !name.isEmpty()) {
                    cookies.add(name, new HttpCookie(name, pair.substring(equals + 1).strip()));
                }
            }
        }
        return cookies;
    }

    @Override
    protected SslInfo initSslInfo() {
        TlsDetails tls = request.tls();
        if (tls == null) {
            return null;
        }
        return SslInfo.from(tls.sessionId(), tls.peerCertificates().toArray(X509Certificate[]::new));
    }

    @Override
    public InetSocketAddress getRemoteAddress() {
        return remoteAddress;
    }

    @Override
    public InetSocketAddress getLocalAddress() {
        return request.localAddress();
    }

    @Override
    public Flux<DataBuffer> getBody() {
        return Flux.from(body);
    }

    @SuppressWarnings("unchecked")
    @Override
    public <T> T getNativeRequest() {
        return (T) request;
    }

    /** The exchange has ended: a body subscriber still waiting, or one still to come, hears {@code cause}. */
    void exchangeEnded(Throwable cause) {
        body.onError(cause);
    }
}
