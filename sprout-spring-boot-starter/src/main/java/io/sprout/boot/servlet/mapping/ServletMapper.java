package io.sprout.boot.servlet.mapping;

import jakarta.servlet.http.MappingMatch;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Maps a path within the context to a servlet following Servlet 6.1 §12.2: exact match, then the context root
 * ({@code ""}), then the longest path prefix ({@code /a/*}), then the extension ({@code *.do}), then the default
 * servlet ({@code /}).
 *
 * <p>Patterns are added while the context initialises (one thread); lookups then run on any worker, so the
 * tables are concurrent maps and a copy-on-write prefix list.
 */
public final class ServletMapper {

    private final Map<String, String> exact = new ConcurrentHashMap<>();
    private final Map<String, String> extensions = new ConcurrentHashMap<>();
    private final Map<String, String> prefixOwners = new ConcurrentHashMap<>();
    private final Set<String> overridable = ConcurrentHashMap.newKeySet();
    private volatile List<String> prefixesLongestFirst = List.of();
    private volatile String contextRootServlet;
    private volatile String defaultServlet;

    /**
     * Maps the patterns to the servlet.
     *
     * @return the patterns already mapped to another servlet; those are left unchanged (Servlet spec)
     * @throws IllegalArgumentException for a pattern that is none of the four kinds
     */
    public synchronized Set<String> add(String servletName, String... patterns) {
        Set<String> conflicts = new LinkedHashSet<>();
        for (String pattern : patterns) {
            String owner = owner(pattern);
            if (owner != null && !owner.equals(servletName) && !overridable.contains(pattern)) {
                conflicts.add(pattern);
            }
        }
        if (!conflicts.isEmpty()) {
            return conflicts;
        }
        for (String pattern : patterns) {
            put(servletName, pattern);
            overridable.remove(pattern);
        }
        return conflicts;
    }

    /**
     * Maps a pattern that the next servlet to ask for it takes over instead of conflicting: the container's own
     * default servlet yields {@code /} to the application's (Tomcat's {@code overridable} wrapper).
     */
    public synchronized void addOverridable(String servletName, String pattern) {
        if (owner(pattern) == null) {
            put(servletName, pattern);
            overridable.add(pattern);
        }
    }

    /** The patterns registered for the servlet. */
    public List<String> patternsOf(String servletName) {
        List<String> patterns = new ArrayList<>();
        exact.forEach((pattern, owner) -> addIf(patterns, owner, servletName, pattern));
        prefixOwners.forEach((prefix, owner) -> addIf(patterns, owner, servletName, prefix + "/*"));
        extensions.forEach((extension, owner) -> addIf(patterns, owner, servletName, "*." + extension));
        addIf(patterns, contextRootServlet, servletName, "");
        addIf(patterns, defaultServlet, servletName, "/");
        return patterns;
    }

    /**
     * @param path the decoded, normalised path within the context, starting with {@code /}
     * @return the match, or {@code null} when nothing (not even a default servlet) is mapped
     */
    public ServletMatch match(String path) {
        String servlet = exact.get(path);
        if (servlet != null) {
            return new ServletMatch(servlet, path, null, MappingMatch.EXACT, path.substring(1), path);
        }
        if (path.equals("/") && contextRootServlet != null) {
            return new ServletMatch(contextRootServlet, "", "/", MappingMatch.CONTEXT_ROOT, "", "");
        }
        ServletMatch prefix = matchPrefix(path);
        if (prefix != null) {
            return prefix;
        }
        ServletMatch extension = matchExtension(path);
        if (extension != null) {
            return extension;
        }
        String fallback = defaultServlet;
        return fallback == null ? null : new ServletMatch(fallback, path, null, MappingMatch.DEFAULT, "", "/");
    }

    private ServletMatch matchPrefix(String path) {
        for (String prefix : prefixesLongestFirst) {
            if (UrlPatterns.underPrefix(path, prefix)) {
                String pathInfo = path.length() == prefix.length() ? null : path.substring(prefix.length());
                String matchValue = pathInfo == null ? "" : pathInfo.substring(1);
                return new ServletMatch(prefixOwners.get(prefix), prefix, pathInfo, MappingMatch.PATH, matchValue,
                        prefix + "/*");
            }
        }
        return null;
    }

    private ServletMatch matchExtension(String path) {
        int slash = path.lastIndexOf('/');
        int dot = path.lastIndexOf('.');
        if (dot <= slash) {
            return null;
        }
        String servlet = extensions.get(path.substring(dot + 1));
        if (servlet == null) {
            return null;
        }
        return new ServletMatch(servlet, path, null, MappingMatch.EXTENSION, path.substring(1, dot),
                "*." + path.substring(dot + 1));
    }

    private String owner(String pattern) {
        return switch (UrlPatterns.kind(pattern)) {
            case CONTEXT_ROOT -> contextRootServlet;
            case DEFAULT -> defaultServlet;
            case PATH -> prefixOwners.get(UrlPatterns.prefixOf(pattern));
            case EXTENSION -> extensions.get(pattern.substring(2));
            case EXACT -> exact.get(pattern);
        };
    }

    private void put(String servletName, String pattern) {
        switch (UrlPatterns.kind(pattern)) {
            case CONTEXT_ROOT -> contextRootServlet = servletName;
            case DEFAULT -> defaultServlet = servletName;
            case PATH -> {
                prefixOwners.put(UrlPatterns.prefixOf(pattern), servletName);
                List<String> sorted = new ArrayList<>(prefixOwners.keySet());
                sorted.sort(Comparator.comparingInt(String::length).reversed());
                prefixesLongestFirst = List.copyOf(sorted);
            }
            case EXTENSION -> extensions.put(pattern.substring(2), servletName);
            case EXACT -> exact.put(pattern, servletName);
        }
    }

    private static void addIf(List<String> patterns, String owner, String servletName, String pattern) {
        if (servletName.equals(owner)) {
            patterns.add(pattern);
        }
    }
}
