package io.sprout.engine.http;

/** Character classes of RFC 9110, without allocation. */
final class Tokens {

    private static final boolean[] TCHAR = new boolean[128];

    static {
        for (char c = '0'; c <= '9'; c++) {
            TCHAR[c] = true;
        }
        for (char c = 'a'; c <= 'z'; c++) {
            TCHAR[c] = true;
            TCHAR[c - 32] = true;
        }
        for (char c : "!#$%&'*+-.^_`|~".toCharArray()) {
            TCHAR[c] = true;
        }
    }

    private Tokens() {
    }

    /** A token character ({@code tchar}) as allowed in methods and field names. */
    static boolean isTokenChar(int b) {
        return b >= 0 && b < 128 && TCHAR[b];
    }

    /** A byte allowed inside a field value: VCHAR, SP, HTAB and obs-text; never CTL, CR, LF or NUL. */
    static boolean isFieldValueByte(int b) {
        int unsigned = b & 0xff;
        return unsigned >= 0x20 && unsigned != 0x7f || unsigned == '\t';
    }

    /** A byte allowed in a request target: visible ASCII only. */
    static boolean isTargetByte(int b) {
        return b > 0x20 && b < 0x7f;
    }

    /** Optional whitespace ({@code OWS}): space or horizontal tab. */
    static boolean isWhitespace(int c) {
        return c == ' ' || c == '\t';
    }
}
