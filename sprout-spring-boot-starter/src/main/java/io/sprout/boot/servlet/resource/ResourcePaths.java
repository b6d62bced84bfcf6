package io.sprout.boot.servlet.resource;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Normalises the paths the Servlet API passes to {@code getResource} and friends: {@code .} and {@code ..}
 * resolved, {@code //} collapsed, a trailing {@code /} kept. Unlike request paths nothing is percent-decoded (a
 * resource path is a name, not a URI). A path that would climb above the root, or holds a backslash or NUL (a
 * separator or terminator on some file system), is refused, so no resource lookup can leave its root.
 */
final class ResourcePaths {

    private ResourcePaths() {
    }

    /** The normalised path, or {@code null} when it does not start with {@code /} or is refused. */
    static String normalize(String path) {
        if (path == null || path.isEmpty() || path.charAt(0) != '/' || path.indexOf('\\') >= 0
                || path.indexOf('\0') >= 0) {
            return null;
        }
        Deque<String> segments = new ArrayDeque<>();
        for (String segment : path.substring(1).split("/", -1)) {
            if (segment.equals("..")) {
                if (segments.pollLast() == null) {
                    return null;
                }
            } else if (!segment.isEmpty() && !segment.equals(".")) {
                segments.addLast(segment);
            }
        }
        StringBuilder normalized = new StringBuilder(path.length());
        for (String segment : segments) {
            normalized.append('/').append(segment);
        }
        boolean directory = path.endsWith("/") || path.endsWith("/.") || path.endsWith("/..");
        if (normalized.isEmpty() || directory) {
            normalized.append('/');
        }
        return normalized.toString();
    }
}
