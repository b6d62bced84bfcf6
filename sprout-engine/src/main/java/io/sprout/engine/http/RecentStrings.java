package io.sprout.engine.http;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Remembers the strings decoded at each slot of the previous request on a connection. Keep-alive clients repeat
 * their target and most header values byte for byte, so the steady state decodes (allocates) nothing.
 * Belongs to one connection's parser; not thread-safe.
 */
final class RecentStrings {

    /** Values longer than this are decoded fresh: comparing them would cost about as much as decoding. */
    private static final int MAX_REMEMBERED_LENGTH = 256;

    private final byte[][] bytes;
    private final String[] strings;

    RecentStrings(int slots) {
        bytes = new byte[slots][];
        strings = new String[slots];
    }

    String decode(int slot, byte[] source, int offset, int length) {
        if (slot >= strings.length || length > MAX_REMEMBERED_LENGTH) {
            return new String(source, offset, length, StandardCharsets.ISO_8859_1);
        }
        byte[] remembered = bytes[slot];
        if (remembered != null
                && Arrays.equals(remembered, 0, remembered.length, source, offset, offset + length)) {
            return strings[slot];
        }
        String decoded = new String(source, offset, length, StandardCharsets.ISO_8859_1);
        bytes[slot] = Arrays.copyOfRange(source, offset, offset + length);
        strings[slot] = decoded;
        return decoded;
    }
}
