package io.sprout.boot.servlet.http;

import java.net.URI;
import java.util.Locale;

/**
 * URL session tracking (Servlet 6.1 §7.1.3) as pure functions: the session id a request path carries in a
 * {@code ;jsessionid=} path parameter, whether a URL the application writes points back into this context, and
 * the URL with the id added. Only used when the application enabled {@code SessionTrackingMode.URL}.
 */
final class SessionUrls {

    /** The path parameter name the Servlet specification fixes (Tomcat would use a renamed cookie's name). */
    static final String PARAMETER = "jsessionid";

    private static final String MARKER = ";" + PARAMETER + "=";

    private SessionUrls() {
    }

    /** The id of the first {@code ;jsessionid=} path parameter of a raw path, or {@code null}. */
    static String idIn(String rawPath) {
        if (rawPath == null) {
            return null;
        }
        int marker = rawPath.indexOf(MARKER);
        if (marker < 0) {
            return null;
        }
        int start = marker + MARKER.length();
        int end = start;
        while (end < rawPath.length() && rawPath.charAt(end) != ';' && rawPath.charAt(end) != '/') {
            end++;
        }
        return end == start ? null : rawPath.substring(start, end);
    }

    /**
     * The URL with {@code ;jsessionid=<id>} after its path and before any query or fragment; unchanged when it
     * already carries one.
     */
    static String encode(String url, String id) {
        int end = url.length();
        int query = url.indexOf('?');
        int fragment = url.indexOf('#');
        if (query >= 0) {
            end = query;
        }
        if (fragment >= 0 && fragment < end) {
            end = fragment;
        }
        String path = url.substring(0, end);
        if (path.contains(MARKER)) {
            return url;
        }
        return path + MARKER + id + url.substring(end);
    }

    /**
     * Whether a URL the application hands to {@code encodeURL} leads back into this context, where the id means
     * something: a relative reference, a path under the context path, or an absolute URL with the request's scheme,
     * host and port and such a path. Anything else would leak the id to another site.
     */
    static boolean pointsInto(String url, String scheme, String host, int port, String contextPath) {
        if (url.isEmpty() || url.startsWith("#")) {
            return false;
        }
        URI uri;
        try {
            uri = URI.create(url);
        } catch (IllegalArgumentException notAUri) {
            return false;
        }
        if (uri.isOpaque()) {
            return false;
        }
        if (uri.getScheme() == null && uri.getRawAuthority() == null) {
            String path = uri.getRawPath();
            return path == null || !path.startsWith("/") || underContext(path, contextPath);
        }
        String urlScheme = uri.getScheme() == null ? scheme : uri.getScheme().toLowerCase(Locale.ROOT);
        int urlPort = uri.getPort() >= 0 ? uri.getPort() : urlScheme.equals("https") ? 443 : 80;
        return urlScheme.equals(scheme) && host.equalsIgnoreCase(uri.getHost()) && urlPort == port
                && underContext(uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath(),
                        contextPath);
    }

    private static boolean underContext(String path, String contextPath) {
        return contextPath.isEmpty() || path.equals(contextPath) || path.startsWith(contextPath + "/")
                || path.startsWith(contextPath + ";");
    }
}
