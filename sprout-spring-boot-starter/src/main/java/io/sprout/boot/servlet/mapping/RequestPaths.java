package io.sprout.boot.servlet.mapping;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Turns a raw request path into the decoded, normalised path that servlet mapping and {@code getServletPath()}
 * use: path parameters ({@code ;jsessionid=...}) are dropped from every segment, percent escapes decoded as
 * UTF-8, {@code //} collapsed, and {@code .}/{@code ..} resolved. Paths that would escape the root, or that
 * carry an encoded {@code /}, {@code \} or NUL, are rejected (the caller answers 400), as Tomcat does by default.
 */
public final class RequestPaths {

    private RequestPaths() {
    }

    /** The normalised path, or {@code null} when the raw path is rejected. */
    public static String normalize(String rawPath) {
        if (rawPath == null || rawPath.isEmpty() || rawPath.charAt(0) != '/') {
            return null;
        }
        if (alreadyNormal(rawPath)) {
            return rawPath;
        }
        Deque<String> segments = new ArrayDeque<>();
        int start = 1;
        while (start <= rawPath.length()) {
            int end = rawPath.indexOf('/', start);
            if (end < 0) {
                end = rawPath.length();
            }
            String segment = decode(stripParameters(rawPath.substring(start, end)));
            if (segment == null) {
                return null;
            }
            if (segment.equals("..")) {
                if (segments.isEmpty()) {
                    return null;
                }
                segments.removeLast();
            } else if (!segment.isEmpty() && !segment.equals(".")) {
                segments.addLast(segment);
            }
            start = end + 1;
        }
        boolean trailingSlash = rawPath.length() > 1 && rawPath.endsWith("/");
        StringBuilder path = new StringBuilder();
        for (String segment : segments) {
            path.append('/').append(segment);
        }
        if (path.isEmpty() || trailingSlash) {
            path.append('/');
        }
        return path.toString();
    }

    /** The common case, checked without allocating: nothing to decode, strip, collapse or resolve. */
    private static boolean alreadyNormal(String path) {
        char previous = 0;
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c == '%' || c == ';' || c == '\\' || (c == '/' && previous == '/')
                    || (c == '.' && previous == '/')) {
                return false;
            }
            previous = c;
        }
        return true;
    }

    private static String stripParameters(String segment) {
        int semicolon = segment.indexOf(';');
        return semicolon < 0 ? segment : segment.substring(0, semicolon);
    }

    /** Percent-decodes one segment; {@code null} when malformed or when it hides a separator or NUL. */
    static String decode(String segment) {
        if (segment.indexOf('%') < 0) {
            return segment.indexOf('\\') >= 0 ? null : segment;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(segment.length());
        for (int i = 0; i < segment.length(); i++) {
            char c = segment.charAt(i);
            if (c != '%') {
                bytes.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
                continue;
            }
            if (i + 2 >= segment.length()) {
                return null;
            }
            int high = Character.digit(segment.charAt(i + 1), 16);
            int low = Character.digit(segment.charAt(i + 2), 16);
            if (high < 0 || low < 0) {
                return null;
            }
            int value = (high << 4) | low;
            if (value == '/' || value == '\\' || value == 0) {
                return null;
            }
            bytes.write(value);
            i += 2;
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
