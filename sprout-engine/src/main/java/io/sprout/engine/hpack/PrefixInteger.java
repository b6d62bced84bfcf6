package io.sprout.engine.hpack;

import java.nio.ByteBuffer;

/**
 * Decodes the prefix integers of RFC 7541 §5.1. A value must fit an int; since 2^31 needs five continuation octets
 * after a full prefix, a sixth (even a redundant zero one) is rejected rather than read on, so a peer cannot make the
 * decoder loop on an endless run of continuation octets.
 */
final class PrefixInteger {

    private static final int MAX_CONTINUATION_OCTETS = 5;

    private PrefixInteger() {
    }

    /**
     * The integer whose first octet is {@code first} (already read) with a prefix of {@code prefixBits} bits, reading
     * any continuation octets from {@code in}.
     */
    static int decode(int first, int prefixBits, ByteBuffer in) throws HpackException {
        int mask = (1 << prefixBits) - 1;
        int value = first & mask;
        if (value < mask) {
            return value;
        }
        long result = value;
        for (int octets = 0, shift = 0; octets < MAX_CONTINUATION_OCTETS; octets++, shift += 7) {
            if (!in.hasRemaining()) {
                throw new HpackException("header block ends inside an integer");
            }
            int octet = in.get() & 0xFF;
            result += (long) (octet & 0x7F) << shift;
            if (result > Integer.MAX_VALUE) {
                throw new HpackException("integer larger than " + Integer.MAX_VALUE);
            }
            if ((octet & 0x80) == 0) {
                return (int) result;
            }
        }
        throw new HpackException("integer with more than " + MAX_CONTINUATION_OCTETS + " continuation octets");
    }
}
