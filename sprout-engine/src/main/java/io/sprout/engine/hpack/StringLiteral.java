package io.sprout.engine.hpack;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One string literal of a header block (RFC 7541 §5.2), read into a reusable array so that a string becomes a
 * {@code String} only when the decoder keeps it. Octets beyond {@code keepLimit} are counted, not kept: the decoder
 * sets the limit to the largest string it could ever deliver or insert into its table, so a peer's oversized literal
 * costs time in proportion to its length but no memory.
 */
final class StringLiteral {

    private static final int HUFFMAN = 0x80;
    private static final int LENGTH_PREFIX_BITS = 7;

    private final int keepLimit;
    private byte[] octets = new byte[64];
    private long length;

    StringLiteral(int keepLimit) {
        this.keepLimit = keepLimit;
    }

    /** Reads the next literal, octets or Huffman code, from {@code in}. */
    void read(ByteBuffer in) throws HpackException {
        if (!in.hasRemaining()) {
            throw new HpackException("header block ends before a string literal");
        }
        int first = in.get() & 0xFF;
        int encodedLength = PrefixInteger.decode(first, LENGTH_PREFIX_BITS, in);
        if (encodedLength > in.remaining()) {
            throw new HpackException("string literal of " + encodedLength + " octets but " + in.remaining()
                    + " left in the header block");
        }
        if ((first & HUFFMAN) != 0) {
            // Every code is at least 5 bits long, which bounds the decoded length.
            int room = (int) Math.min(keepLimit, encodedLength * 8L / 5);
            ensure(room);
            length = HuffmanDecoder.decode(in, encodedLength, octets, room);
        } else {
            length = encodedLength;
            if (encodedLength <= keepLimit) {
                ensure(encodedLength);
                in.get(octets, 0, encodedLength);
            } else {
                in.position(in.position() + encodedLength);
            }
        }
    }

    /** The decoded length in octets. */
    long length() {
        return length;
    }

    /** The literal as one char per octet; only when {@link #length()} is within the keep limit. */
    String text() {
        if (length > keepLimit) {
            throw new IllegalStateException("literal of " + length + " octets was counted, not kept");
        }
        return new String(octets, 0, (int) length, StandardCharsets.ISO_8859_1);
    }

    private void ensure(int capacity) {
        if (capacity > octets.length) {
            octets = Arrays.copyOf(octets, Math.max(capacity, Math.min(keepLimit, octets.length * 2)));
        }
    }
}
