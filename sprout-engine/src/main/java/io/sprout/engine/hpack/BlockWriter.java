package io.sprout.engine.hpack;

import java.util.Arrays;

/**
 * The octets of one header block as the encoder writes them: prefix integers (RFC 7541 §5.1) and string literals
 * (§5.2), Huffman-coded when that is shorter. Reuses its array from block to block.
 */
final class BlockWriter {

    private static final int HUFFMAN = 0x80;
    private static final int LENGTH_PREFIX_BITS = 7;

    private byte[] octets = new byte[256];
    private int length;

    void reset() {
        length = 0;
    }

    byte[] octets() {
        return octets;
    }

    int length() {
        return length;
    }

    /** Writes {@code value} in a prefix of {@code prefixBits} bits; the first octet's other bits are {@code flags}. */
    void integer(int flags, int prefixBits, int value) {
        ensure(6);
        int mask = (1 << prefixBits) - 1;
        if (value < mask) {
            octets[length++] = (byte) (flags | value);
            return;
        }
        octets[length++] = (byte) (flags | mask);
        int rest = value - mask;
        while (rest >= 0x80) {
            octets[length++] = (byte) (rest & 0x7F | 0x80);
            rest >>>= 7;
        }
        octets[length++] = (byte) rest;
    }

    /** Writes a string literal, one octet per char (chars must be at most 0xFF), Huffman-coded when shorter. */
    void string(String text) {
        long huffmanLength = HuffmanEncoder.encodedLength(text);
        if (huffmanLength < text.length()) {
            integer(HUFFMAN, LENGTH_PREFIX_BITS, (int) huffmanLength);
            ensure((int) huffmanLength);
            length = HuffmanEncoder.encode(text, octets, length);
        } else {
            integer(0, LENGTH_PREFIX_BITS, text.length());
            ensure(text.length());
            for (int i = 0; i < text.length(); i++) {
                octets[length++] = (byte) text.charAt(i);
            }
        }
    }

    private void ensure(int more) {
        if (length + more > octets.length) {
            octets = Arrays.copyOf(octets, Math.max(length + more, octets.length * 2));
        }
    }
}
