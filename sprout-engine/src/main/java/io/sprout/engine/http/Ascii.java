package io.sprout.engine.http;

/** Byte-level comparisons of ASCII text against strings, so lookups need no temporary strings. */
final class Ascii {

    private Ascii() {
    }

    static boolean equalsExact(String text, byte[] bytes, int offset, int length) {
        if (text.length() != length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (text.charAt(i) != bytes[offset + i]) {
                return false;
            }
        }
        return true;
    }

    static boolean equalsIgnoreCase(String text, byte[] bytes, int offset, int length) {
        if (text.length() != length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (lower(text.charAt(i)) != lower(bytes[offset + i])) {
                return false;
            }
        }
        return true;
    }

    static int lower(int c) {
        return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c & 0xff;
    }
}
