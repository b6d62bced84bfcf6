package io.sprout.boot.servlet;

import io.sprout.boot.servlet.mapping.ServletMatch;
import io.sprout.boot.servlet.mapping.UrlPatterns;
import jakarta.servlet.DispatcherType;

import java.util.List;
import java.util.Set;

/** One {@code addMappingFor...} call: which dispatches of which paths or servlets pass through the filter. */
record FilterMapping(FilterHolder filter, Set<DispatcherType> dispatcherTypes, List<String> urlPatterns,
        List<String> servletNames, boolean matchAfter) {

    boolean matchesUrl(DispatcherType type, String path, ServletMatch match) {
        if (!dispatcherTypes.contains(type)) {
            return false;
        }
        boolean defaultServlet = match != null
                && match.mappingMatch() == jakarta.servlet.http.MappingMatch.DEFAULT;
        for (String pattern : urlPatterns) {
            if (UrlPatterns.filterMatches(pattern, path, defaultServlet)) {
                return true;
            }
        }
        return false;
    }

    boolean matchesServlet(DispatcherType type, String servletName) {
        return dispatcherTypes.contains(type) && servletName != null
                && (servletNames.contains(servletName) || servletNames.contains("*"));
    }
}
