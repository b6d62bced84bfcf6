package io.sprout.engine.tls;

/** What the first bytes of a connection on a TLS port are, as {@link ClientHelloParser} reads them. */
sealed interface FirstBytes {

    /** Too few bytes yet to tell. */
    record Incomplete() implements FirstBytes {
    }

    /**
     * Not a TLS record at all: plaintext. {@code looksLikeHttp} when the first byte could start a request method, so
     * the client deserves a plaintext 400 telling it to use TLS rather than a silent close.
     */
    record Plaintext(boolean looksLikeHttp) implements FirstBytes {
    }

    /** A TLS handshake record that is not a well-formed ClientHello. */
    record Malformed(String reason) implements FirstBytes {
    }

    /** A ClientHello; {@code serverName} is its SNI host name in lower case, or {@code null} when it has none. */
    record ClientHello(String serverName) implements FirstBytes {
    }

    FirstBytes INCOMPLETE = new Incomplete();
}
