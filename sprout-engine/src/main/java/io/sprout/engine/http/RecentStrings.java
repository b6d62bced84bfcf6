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
    /** Slots to begin with: a target and a few fields, as most clients send; more as a client's requests need. */
    private static final int INITIAL_SLOTS = 8;

    private final int maxSlots;
    private byte[][] bytes;
    private String[] strings;

    RecentStrings(int maxSlots) {
        this.maxSlots = maxSlots;
        bytes = new byte[Math.min(maxSlots, INITIAL_SLOTS)][];
        strings = new String[bytes.length];
    }

    String decode(int slot, byte[] source, int offset, int length) {
        if (slot >= maxSlots || length > MAX_REMEMBERED_LENGTH) {
            return new String(source, offset, length, StandardCharsets.ISO_8859_1);
        }
        if (slot >= strings.length) {
            int slots = Math.min(maxSlots, Math.max(slot + 1, strings.length * 2));
            bytes = Arrays.copyOf(bytes, slots);
            strings = Arrays.copyOf(strings, slots);
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
