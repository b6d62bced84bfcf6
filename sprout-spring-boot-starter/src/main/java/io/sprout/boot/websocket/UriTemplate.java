package io.sprout.boot.websocket;

import jakarta.websocket.DeploymentException;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The path of a server endpoint (Jakarta WebSocket 2.2 §3.1.1): segments that are either literal or one whole
 * {@code {variable}} (level 1 URI templates). A template matches a path with as many segments, literal segments
 * equal and variable segments not empty. Of several matching templates the more specific wins: an exact match
 * first, then the one whose first differing segment is literal. Immutable.
 *
 * @param path the template as registered
 * @param segments its segments; a variable's segment is its name in braces
 */
record UriTemplate(String path, List<String> segments) {

    /** @throws DeploymentException when the path is not a valid level 1 template, naming what is wrong */
    static UriTemplate parse(String path) throws DeploymentException {
        if (path == null || !path.startsWith("/")) {
            throw new DeploymentException("The endpoint path [" + path + "] must start with '/'");
        }
        List<String> segments = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (String segment : split(path)) {
            if (segment.isEmpty() && !path.equals("/")) {
                throw new DeploymentException("The endpoint path [" + path + "] has an empty segment");
            }
            boolean open = segment.indexOf('{') >= 0;
            boolean close = segment.indexOf('}') >= 0;
            if (open || close) {
                if (!segment.startsWith("{") || !segment.endsWith("}") || segment.length() < 3
                        || segment.indexOf('{', 1) >= 0 || segment.indexOf('}') != segment.length() - 1) {
                    throw new DeploymentException("The endpoint path [" + path + "] has the segment [" + segment
                            + "]: a variable must be a whole segment {name}");
                }
                if (!names.add(segment.substring(1, segment.length() - 1))) {
                    throw new DeploymentException("The endpoint path [" + path + "] names the variable " + segment
                            + " twice");
                }
            }
            segments.add(segment);
        }
        return new UriTemplate(path, List.copyOf(segments));
    }

    /** The path parameters when {@code requestPath} (no query, not percent-encoded) matches, else {@code null}. */
    Map<String, String> match(String requestPath) {
        List<String> parts = split(requestPath);
        if (parts.size() != segments.size()) {
            return null;
        }
        Map<String, String> parameters = new LinkedHashMap<>();
        for (int i = 0; i < parts.size(); i++) {
            String segment = segments.get(i);
            String part = parts.get(i);
            if (isVariable(segment)) {
                if (part.isEmpty()) {
                    return null;
                }
                parameters.put(segment.substring(1, segment.length() - 1), part);
            } else if (!segment.equals(part)) {
                return null;
            }
        }
        return parameters;
    }

    /**
     * Negative when this template is more specific than {@code other} (both matching the same path): literal beats
     * variable at the first segment where they differ.
     */
    int compareSpecificity(UriTemplate other) {
        int count = Math.min(segments.size(), other.segments.size());
        for (int i = 0; i < count; i++) {
            boolean mine = isVariable(segments.get(i));
            boolean theirs = isVariable(other.segments.get(i));
            if (mine != theirs) {
                return mine ? 1 : -1;
            }
        }
        return 0;
    }

    /** Whether both templates match exactly the same paths (e.g. {@code /a/{x}} and {@code /a/{y}}). */
    boolean equivalent(UriTemplate other) {
        return shape().equals(other.shape());
    }

    /** The variable names, in order. */
    List<String> variables() {
        return segments.stream().filter(UriTemplate::isVariable).map(s -> s.substring(1, s.length() - 1)).toList();
    }

    private List<String> shape() {
        return segments.stream().map(s -> isVariable(s) ? "{}" : s).toList();
    }

    private static boolean isVariable(String segment) {
        return segment.startsWith("{");
    }

    private static List<String> split(String path) {
        List<String> parts = new ArrayList<>();
        int start = 1;
        while (true) {
            int slash = path.indexOf('/', start);
            if (slash < 0) {
                parts.add(path.substring(start));
                return parts;
            }
            parts.add(path.substring(start, slash));
            start = slash + 1;
        }
    }
}
