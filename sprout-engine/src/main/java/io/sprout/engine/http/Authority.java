package io.sprout.engine.http;

/** Syntax of the authority in a Host field or an absolute-form target (RFC 3986 §3.2). */
final class Authority {

    private Authority() {
    }

    /** {@code host [ ":" port ]}, where host is a reg-name, an IPv4 address or a bracketed IP literal; may be empty. */
    static boolean isValid(String authority) {
        int length = authority.length();
        if (length == 0) {
            return true;
        }
        int hostEnd;
        if (authority.charAt(0) == '[') {
            hostEnd = authority.indexOf(']');
            if (hostEnd < 0 || !isIpLiteral(authority, 1, hostEnd)) {
                return false;
            }
            hostEnd++;
        } else {
            hostEnd = authority.indexOf(':');
            if (hostEnd < 0) {
                hostEnd = length;
            }
            for (int i = 0; i < hostEnd; i++) {
                if (!isRegNameChar(authority.charAt(i))) {
                    return false;
                }
            }
        }
        if (hostEnd == length) {
            return true;
        }
        if (authority.charAt(hostEnd) != ':' || length - hostEnd - 1 > 5) {
            return false;
        }
        for (int i = hostEnd + 1; i < length; i++) {
            char c = authority.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    /** The authority of {@code http://authority/...} or {@code https://...}, or {@code null} if not that form. */
    static String ofAbsoluteTarget(String target) {
        int schemeEnd = target.indexOf("://");
        if (schemeEnd <= 0) {
            return null;
        }
        String scheme = target.substring(0, schemeEnd);
        if (!scheme.equalsIgnoreCase("http") && !scheme.equalsIgnoreCase("https")) {
            return null;
        }
        int start = schemeEnd + 3;
        int end = start;
        while (end < target.length() && "/?#".indexOf(target.charAt(end)) < 0) {
            end++;
        }
        String authority = target.substring(start, end);
        if (authority.isEmpty() || authority.indexOf('@') >= 0 || !isValid(authority)) {
            return null;
        }
        return authority;
    }

    private static boolean isRegNameChar(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                || "-._~%!$&'()*+,;=".indexOf(c) >= 0;
    }

    private static boolean isIpLiteral(String text, int from, int to) {
        if (from >= to) {
            return false;
        }
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            boolean ok = c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
                    || c == ':' || c == '.' || c == 'v' || c == 'V';
            if (!ok) {
                return false;
            }
        }
        return true;
    }
}
