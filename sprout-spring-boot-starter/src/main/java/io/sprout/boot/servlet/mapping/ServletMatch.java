package io.sprout.boot.servlet.mapping;

import jakarta.servlet.http.HttpServletMapping;
import jakarta.servlet.http.MappingMatch;

/**
 * The servlet a path maps to and how the path splits into servlet path and path info.
 *
 * @param servletName the registered servlet's name
 * @param servletPath the part of the path the pattern matched ({@code ""} for {@code /*} and the context root)
 * @param pathInfo the rest, or {@code null}
 * @param mappingMatch which kind of pattern matched
 * @param matchValue the matched value as {@link HttpServletMapping#getMatchValue()} defines it
 * @param pattern the pattern as registered
 */
public record ServletMatch(String servletName, String servletPath, String pathInfo, MappingMatch mappingMatch,
        String matchValue, String pattern) implements HttpServletMapping {

    @Override
    public String getMatchValue() {
        return matchValue;
    }

    @Override
    public String getPattern() {
        return pattern;
    }

    @Override
    public String getServletName() {
        return servletName;
    }

    @Override
    public MappingMatch getMappingMatch() {
        return mappingMatch;
    }
}
