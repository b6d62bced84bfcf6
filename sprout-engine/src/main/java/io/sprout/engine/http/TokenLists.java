package io.sprout.engine.http;

/**
 * Matching in field values that are comma-separated lists (RFC 9110 §5.6.1), such as {@code Connection: close},
 * without splitting the value into new strings.
 */
final class TokenLists {

    private TokenLists() {
    }

    /** Whether a comma-separated list value contains {@code token}, ignoring case and optional whitespace. */
    static boolean contains(String list, String token) {
        int length = list.length();
        int start = 0;
        while (start <= length) {
            int end = list.indexOf(',', start);
            if (end < 0) {
                end = length;
            }
            int from = start;
            int to = end;
            while (from < to && Tokens.isWhitespace(list.charAt(from))) {
                from++;
            }
            while (to > from && Tokens.isWhitespace(list.charAt(to - 1))) {
                to--;
            }
            if (to - from == token.length() && list.regionMatches(true, from, token, 0, token.length())) {
                return true;
            }
            start = end + 1;
        }
        return false;
    }
}
