package io.sprout.engine.exchange;

import io.sprout.engine.AsyncExchange;
import io.sprout.engine.HttpRequest;
import io.sprout.engine.TlsDetails;
import io.sprout.engine.http.HeaderFields;
import io.sprout.engine.http.RequestHead;

import java.io.InputStream;
import java.net.InetSocketAddress;

/** The engine's {@link HttpRequest}: the parsed head, the body stream, the connection's addresses and the exchange. */
final class ExchangeRequest implements HttpRequest {

    private final RequestHead head;
    private final RequestBody body;
    private final long contentLength;
    private final ConnectionChannel channel;
    private final Exchange exchange;
    private final int pathStart;
    private final int queryStart;

    ExchangeRequest(RequestHead head, RequestBody body, long contentLength, Exchange exchange,
            ConnectionChannel channel) {
        this.head = head;
        this.body = body;
        this.contentLength = contentLength;
        this.exchange = exchange;
        this.channel = channel;
        String target = head.target();
        this.pathStart = pathStart(target);
        this.queryStart = target.indexOf('?', pathStart);
    }

    @Override
    public String method() {
        return head.method();
    }

    @Override
    public String target() {
        return head.target();
    }

    @Override
    public String path() {
        String target = head.target();
        int end = queryStart < 0 ? target.length() : queryStart;
        if (pathStart == 0 && end == target.length()) {
            return target;
        }
        String path = target.substring(pathStart, end);
        return path.isEmpty() ? "/" : path;
    }

    @Override
    public String query() {
        return queryStart < 0 ? null : head.target().substring(queryStart + 1);
    }

    @Override
    public String protocol() {
        return head.version().text();
    }

    @Override
    public HeaderFields headers() {
        return head.headers();
    }

    @Override
    public long contentLength() {
        return contentLength;
    }

    @Override
    public InputStream body() {
        return body;
    }

    @Override
    public HeaderFields trailers() {
        return body.trailers();
    }

    @Override
    public AsyncExchange startAsync() {
        return exchange.startAsync();
    }

    @Override
    public AsyncExchange asyncExchange() {
        return exchange.asyncExchange();
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return channel.remoteAddress();
    }

    @Override
    public InetSocketAddress localAddress() {
        return channel.localAddress();
    }

    @Override
    public TlsDetails tls() {
        return channel.tls();
    }

    /** Where the path starts: 0 for origin-form and {@code *}, after the authority for absolute-form. */
    private static int pathStart(String target) {
        if (target.charAt(0) == '/' || target.equals("*")) {
            return 0;
        }
        int authorityStart = target.indexOf("://") + 3;
        int at = authorityStart;
        while (at < target.length() && "/?#".indexOf(target.charAt(at)) < 0) {
            at++;
        }
        return at;
    }
}
