package io.sprout.engine;

import java.io.InputStream;
import java.net.InetSocketAddress;

/**
 * One parsed HTTP/1.1 request. Valid during {@link RequestHandler#handle} and, once {@link #startAsync()} is called,
 * until the exchange ends; used by one thread at a time.
 */
public interface HttpRequest {

    /** The method token as sent, e.g. {@code GET}. */
    String method();

    /** The request target as sent: origin-form {@code /path?query}, absolute-form, or {@code *}. */
    String target();

    /** The raw (still percent-encoded) path of the target, without the query. */
    String path();

    /** The raw query string without {@code ?}, or {@code null} when the target has none. */
    String query();

    /** {@code HTTP/1.1} or {@code HTTP/1.0}. */
    String protocol();

    /** The request's header fields, in arrival order. */
    Headers headers();

    /** The declared body length, or {@code -1} when the body is chunked; {@code 0} when there is no body. */
    long contentLength();

    /**
     * The body, de-chunked. Reading blocks the calling worker until bytes arrive or the body read timeout expires
     * ({@link java.net.SocketTimeoutException}). The first read answers {@code Expect: 100-continue}.
     */
    InputStream body();

    /** Trailer fields of a chunked body: empty until the body has been read to its end. */
    Headers trailers();

    /**
     * Suspends the exchange: when the handler returns, the response is not completed and the worker is released;
     * the returned handle completes it later from any thread. Call on the handler's thread, at most once.
     *
     * @throws IllegalStateException when called twice or after the handler has returned
     */
    AsyncExchange startAsync();

    /** The handle of {@link #startAsync()}, or {@code null} when the exchange is not suspended. */
    AsyncExchange asyncExchange();

    InetSocketAddress remoteAddress();

    InetSocketAddress localAddress();

    /**
     * What the connection's TLS handshake negotiated (protocol, cipher suite, the client's certificates, ALPN), or
     * {@code null} on a plaintext connection. The default is for implementations that never see TLS.
     */
    default TlsDetails tls() {
        return null;
    }

    /** Whether the request came over TLS. */
    default boolean isSecure() {
        return tls() != null;
    }

    /** The scheme the request was made with: {@code https} over TLS, else {@code http}. */
    default String scheme() {
        return isSecure() ? "https" : "http";
    }
}
