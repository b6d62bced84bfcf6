package io.sprout.engine.hpack;

/**
 * A header block that cannot be decoded: a COMPRESSION_ERROR (RFC 7541; RFC 9113 §4.3). The decoder's dynamic table
 * may now differ from the peer's, so no later block can be trusted: the connection must end with GOAWAY
 * COMPRESSION_ERROR.
 *
 * <p>Public because exchange's HTTP/2 session catches it from {@link HpackDecoder#decode} to end the connection.
 */
public final class HpackException extends Exception {

    public HpackException(String message) {
        super(message);
    }
}
