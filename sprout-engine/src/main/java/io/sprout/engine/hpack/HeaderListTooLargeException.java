package io.sprout.engine.hpack;

/**
 * The decoded header list was larger than the decoder's {@code maxHeaderListSize} (counted as RFC 9113 §6.5.2 does:
 * name and value octets plus 32 per field). Unlike an {@link HpackException} this is no compression error: the block
 * was processed to its end, the dynamic table is in step with the peer's, and only the fields past the limit were
 * not delivered. The caller answers the one stream (431 or RST_STREAM) and the connection lives on.
 *
 * <p>Public because exchange's HTTP/2 session catches it from {@link HpackDecoder#decode} to refuse the stream.
 */
public final class HeaderListTooLargeException extends Exception {

    private final long decodedSize;

    HeaderListTooLargeException(long decodedSize, int maxHeaderListSize) {
        super("header list of " + decodedSize + " octets exceeds the limit of " + maxHeaderListSize);
        this.decodedSize = decodedSize;
    }

    /** The size of the whole decoded list, fields not delivered included. */
    public long decodedSize() {
        return decodedSize;
    }
}
