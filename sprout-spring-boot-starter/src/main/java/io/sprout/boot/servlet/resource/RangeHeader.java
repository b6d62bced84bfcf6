package io.sprout.boot.servlet.resource;

/**
 * The part of a resource a {@code Range} header asks for (RFC 9110 §14), as one pure function. Single byte ranges
 * are honoured: {@code bytes=a-b}, {@code bytes=a-} and {@code bytes=-n}. Anything else (another unit, a malformed
 * or descending range, several ranges) is ignored and the whole resource is sent, which the RFC allows a server to
 * do; a range that starts at or past the end, or a zero-length suffix, is unsatisfiable (416).
 */
final class RangeHeader {

    private static final long EMPTY = -1;
    private static final long MALFORMED = -2;

    private RangeHeader() {
    }

    static ByteRange parse(String header, long length) {
        if (header == null) {
            return new ByteRange.Whole();
        }
        String value = header.trim();
        if (!value.regionMatches(true, 0, "bytes=", 0, 6)) {
            return new ByteRange.Whole();
        }
        String spec = value.substring(6).trim();
        int dash = spec.indexOf('-');
        if (dash < 0 || spec.indexOf(',') >= 0) {
            return new ByteRange.Whole();
        }
        long first = digits(spec.substring(0, dash).trim());
        long last = digits(spec.substring(dash + 1).trim());
        if (first == EMPTY) {
            return suffix(last, length);
        }
        if (first == MALFORMED || last == MALFORMED || (last != EMPTY && last < first)) {
            return new ByteRange.Whole();
        }
        if (first >= length) {
            return new ByteRange.Unsatisfiable();
        }
        return new ByteRange.Part(first, last == EMPTY ? length - 1 : Math.min(last, length - 1));
    }

    /** {@code bytes=-n}: the last n bytes. */
    private static ByteRange suffix(long count, long length) {
        if (count == EMPTY || count == MALFORMED) {
            return new ByteRange.Whole();
        }
        if (count == 0 || length == 0) {
            return new ByteRange.Unsatisfiable();
        }
        return new ByteRange.Part(Math.max(0, length - count), length - 1);
    }

    /** A run of digits as a number ({@link Long#MAX_VALUE} when larger); {@link #EMPTY} or {@link #MALFORMED}. */
    private static long digits(String text) {
        if (text.isEmpty()) {
            return EMPTY;
        }
        long value = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return MALFORMED;
            }
            int digit = c - '0';
            value = value > (Long.MAX_VALUE - digit) / 10 ? Long.MAX_VALUE : value * 10 + digit;
        }
        return value;
    }
}
