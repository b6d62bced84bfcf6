package io.sprout.boot.servlet.mapping;

import jakarta.servlet.http.MappingMatch;

/**
 * The four kinds of Servlet URL pattern and how a filter's pattern matches a path. {@code /a/*} is stored as its
 * prefix {@code /a}, and {@code /*} as the empty prefix, so one "starts with, at a segment boundary" test serves
 * servlets and filters.
 */
public final class UrlPatterns {

    private UrlPatterns() {
    }

    /**
     * @throws IllegalArgumentException naming the pattern when it is none of the kinds
     */
    public static MappingMatch kind(String pattern) {
        if (pattern == null) {
            throw new IllegalArgumentException("URL pattern must not be null");
        }
        if (pattern.isEmpty()) {
            return MappingMatch.CONTEXT_ROOT;
        }
        if (pattern.equals("/")) {
            return MappingMatch.DEFAULT;
        }
        if (pattern.startsWith("*.") && pattern.length() > 2 && pattern.indexOf('/') < 0) {
            return MappingMatch.EXTENSION;
        }
        if (pattern.startsWith("/") && pattern.endsWith("/*")) {
            return MappingMatch.PATH;
        }
        if (pattern.startsWith("/") && !pattern.contains("*")) {
            return MappingMatch.EXACT;
        }
        throw new IllegalArgumentException("Invalid URL pattern '" + pattern
                + "': use an exact path (/a), a path prefix (/a/*), an extension (*.do), '/' or ''");
    }

    /** The prefix of a {@code /a/*} pattern: {@code /a}, or {@code ""} for {@code /*}. */
    static String prefixOf(String pattern) {
        return pattern.substring(0, pattern.length() - 2);
    }

    /** Whether {@code path} equals {@code prefix} or continues it with a {@code /}. */
    static boolean underPrefix(String path, String prefix) {
        return path.startsWith(prefix) && (path.length() == prefix.length() || path.charAt(prefix.length()) == '/');
    }

    /**
     * Whether a filter's URL pattern matches a request.
     *
     * @param pattern the filter mapping's pattern
     * @param path the decoded path within the context
     * @param defaultServlet whether the request was mapped to the default servlet (a {@code /} filter pattern
     *     matches exactly those requests)
     */
    public static boolean filterMatches(String pattern, String path, boolean defaultServlet) {
        return switch (kind(pattern)) {
            case CONTEXT_ROOT -> path.equals("/");
            case DEFAULT -> defaultServlet;
            case PATH -> underPrefix(path, prefixOf(pattern));
            case EXTENSION -> {
                int slash = path.lastIndexOf('/');
                yield path.endsWith(pattern.substring(1)) && path.lastIndexOf('.') > slash;
            }
            case EXACT -> path.equals(pattern);
        };
    }
}
