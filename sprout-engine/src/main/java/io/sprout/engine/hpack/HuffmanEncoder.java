package io.sprout.engine.hpack;

/**
 * Huffman-codes string literals (RFC 7541 §5.2): codes are packed into a long, whole octets leave it as they
 * fill, and the last octet is padded with the most significant bits of EOS (ones). Each char is taken as one
 * octet; callers pass strings whose chars are at most 0xFF.
 */
final class HuffmanEncoder {

    private HuffmanEncoder() {
    }

    /** The coded length of {@code text} in octets. */
    static long encodedLength(String text) {
        long bits = 0;
        for (int i = 0; i < text.length(); i++) {
            bits += HuffmanCode.LENGTHS[text.charAt(i) & 0xFF];
        }
        return (bits + 7) >>> 3;
    }

    /**
     * Writes the code of {@code text} to {@code out} from {@code offset}, which must have room for
     * {@link #encodedLength(String)} octets.
     *
     * @return the offset after the last octet written
     */
    static int encode(String text, byte[] out, int offset) {
        long bits = 0;
        int pending = 0;
        int position = offset;
        for (int i = 0; i < text.length(); i++) {
            int symbol = text.charAt(i) & 0xFF;
            int length = HuffmanCode.LENGTHS[symbol];
            // At most 7 bits wait from before, plus a code of at most 30: the long never loses a pending bit.
            bits = bits << length | HuffmanCode.CODES[symbol];
            pending += length;
            while (pending >= 8) {
                pending -= 8;
                out[position++] = (byte) (bits >>> pending);
            }
        }
        if (pending > 0) {
            out[position++] = (byte) (bits << (8 - pending) | 0xFF >>> pending);
        }
        return position;
    }
}
