package io.sprout.boot.servlet;

import io.sprout.engine.Headers;
import io.sprout.engine.HttpRequest;
import io.sprout.engine.server.Sprout;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/** An engine request built in memory, so the container runs without sockets. */
public final class FakeHttpRequest implements HttpRequest {

    private final String method;
    private final String target;
    private final Headers headers = Sprout.headers();
    private final byte[] body;
    private InputStream bodyStream;
    private FakeAsyncExchange async;
    private InetSocketAddress remote = new InetSocketAddress("127.0.0.1", 50000);

    public FakeHttpRequest(String method, String target, String body, String... headerPairs) {
        this.method = method;
        this.target = target;
        this.body = body.getBytes(StandardCharsets.UTF_8);
        this.bodyStream = new ByteArrayInputStream(this.body);
        headers.add("Host", "localhost:8080");
        for (int i = 0; i < headerPairs.length; i += 2) {
            headers.add(headerPairs[i], headerPairs[i + 1]);
        }
    }

    public static FakeHttpRequest get(String target, String... headerPairs) {
        return new FakeHttpRequest("GET", target, "", headerPairs);
    }

    @Override
    public String method() {
        return method;
    }

    @Override
    public String target() {
        return target;
    }

    @Override
    public String path() {
        int question = target.indexOf('?');
        return question < 0 ? target : target.substring(0, question);
    }

    @Override
    public String query() {
        int question = target.indexOf('?');
        return question < 0 ? null : target.substring(question + 1);
    }

    @Override
    public String protocol() {
        return "HTTP/1.1";
    }

    @Override
    public Headers headers() {
        return headers;
    }

    @Override
    public long contentLength() {
        return body.length;
    }

    @Override
    public InputStream body() {
        return bodyStream;
    }

    @Override
    public Headers trailers() {
        return Sprout.headers();
    }

    /** Makes every body read throw {@code failure}, as the engine's stream does when it rejects the body. */
    public FakeHttpRequest bodyFailsWith(IOException failure) {
        bodyStream = new InputStream() {
            @Override
            public int read() throws IOException {
                throw failure;
            }
        };
        return this;
    }

    /** Pretends the request came from another peer. */
    public FakeHttpRequest from(String address, int port) {
        remote = new InetSocketAddress(address, port);
        return this;
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return remote;
    }

    @Override
    public InetSocketAddress localAddress() {
        return new InetSocketAddress("127.0.0.1", 8080);
    }

    @Override
    public io.sprout.engine.AsyncExchange startAsync() {
        if (async != null) {
            throw new IllegalStateException("startAsync() called twice");
        }
        async = new FakeAsyncExchange();
        return async;
    }

    @Override
    public FakeAsyncExchange asyncExchange() {
        return async;
    }
}
