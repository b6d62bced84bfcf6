package io.sprout.engine.hpack;

/**
 * Makes a response field's name and value safe to send as octets (see {@link HpackEncoder}). Returns the string
 * itself when nothing needs changing, which is almost always, so the common case allocates nothing.
 */
final class FieldText {

    private FieldText() {
    }

    /** The name with ASCII upper case lowered and unsendable chars replaced, as {@link #octets(String)} does. */
    static String lowerCase(String name) {
        String text = octets(name);
        for (int i = 0; i < text.length(); i++) {
            if (isUpperCase(text.charAt(i))) {
                return lowered(text, i);
            }
        }
        return text;
    }

    /** The text with each char above 0xFF replaced by {@code ?} and each CR, LF and NUL by a space. */
    static String octets(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (replacement(text.charAt(i)) != 0) {
                return replaced(text, i);
            }
        }
        return text;
    }

    private static String lowered(String text, int from) {
        char[] chars = text.toCharArray();
        for (int i = from; i < chars.length; i++) {
            if (isUpperCase(chars[i])) {
                chars[i] += 'a' - 'A';
            }
        }
        return new String(chars);
    }

    private static String replaced(String text, int from) {
        char[] chars = text.toCharArray();
        for (int i = from; i < chars.length; i++) {
            char replacement = replacement(chars[i]);
            chars[i] = replacement == 0 ? chars[i] : replacement;
        }
        return new String(chars);
    }

    private static boolean isUpperCase(char c) {
        return c >= 'A' && c <= 'Z';
    }

    /** What {@code c} must be sent as, or 0 when it may be sent as it is. */
    private static char replacement(char c) {
        if (c > 0xFF) {
            return '?';
        }
        return c == '\r' || c == '\n' || c == 0 ? ' ' : 0;
    }
}
