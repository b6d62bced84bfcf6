package io.sprout.engine.http;

/**
 * Writes chunk-size lines of the chunked coding (RFC 9112 §7.1) for responses.
 *
 * <p>Public because exchange's {@code Http1ResponseWire} writes chunk headers with it: the codec encodes, the exchange
 * decides when.
 */
public final class ChunkHeader {

    /** The last chunk and an empty trailer section. */
    public static final byte[] LAST_CHUNK = {'0', '\r', '\n', '\r', '\n'};

    /** The longest size line written: 8 hex digits and CRLF. */
    public static final int MAX_LENGTH = 10;

    private static final byte[] HEX = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private ChunkHeader() {
    }

    /**
     * Writes {@code size} in hex followed by CRLF so that it ends just before {@code end}.
     *
     * @return the index of the first byte written
     */
    public static int writeBefore(byte[] dst, int end, int size) {
        int at = end;
        dst[--at] = '\n';
        dst[--at] = '\r';
        int value = size;
        do {
            dst[--at] = HEX[value & 0xf];
            value >>>= 4;
        } while (value != 0);
        return at;
    }
}
