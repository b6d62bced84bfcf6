package io.sprout.engine.exchange;

/** How a response body is delimited, decided at commit. */
enum ResponseFraming {
    /** A {@code Content-Length} header and exactly that many bytes. */
    FIXED,
    /** {@code Transfer-Encoding: chunked}. */
    CHUNKED,
    /** HTTP/1.0 without a known length: the body ends when the connection closes. */
    CLOSE_DELIMITED,
    /** No body: a {@code HEAD} request, or status 1xx, 204 or 304. */
    NONE,
    /** After {@code 101 Switching Protocols}: the bytes of the next protocol, unframed. */
    RAW;

    boolean hasBody() {
        return this != NONE;
    }
}
