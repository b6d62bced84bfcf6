package io.sprout.boot.servlet;

import io.sprout.boot.servlet.mapping.ServletMatch;
import jakarta.servlet.DispatcherType;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Every filter mapping in chain order: mappings added with {@code isMatchAfter=false} come before those added
 * with {@code true}, each group in call order. Built while the context initialises, read by every request.
 */
final class FilterMappings {

    private final List<FilterMapping> before = new CopyOnWriteArrayList<>();
    private final List<FilterMapping> after = new CopyOnWriteArrayList<>();

    void add(FilterMapping mapping) {
        (mapping.matchAfter() ? after : before).add(mapping);
    }

    void forEachOf(FilterHolder filter, Consumer<FilterMapping> action) {
        for (FilterMapping mapping : all()) {
            if (mapping.filter() == filter) {
                action.accept(mapping);
            }
        }
    }

    /** The filters for one dispatch (Servlet spec 6.2.4): URL-pattern matches first, then servlet-name matches. */
    List<FilterHolder> chainFor(DispatcherType type, String path, ServletMatch match) {
        List<FilterMapping> mappings = all();
        // At most one entry per mapping; sized so, it never grows (each request builds one).
        List<FilterHolder> chain = new ArrayList<>(mappings.size());
        for (FilterMapping mapping : mappings) {
            if (mapping.matchesUrl(type, path, match) && !chain.contains(mapping.filter())) {
                chain.add(mapping.filter());
            }
        }
        String servletName = match == null ? null : match.servletName();
        for (FilterMapping mapping : mappings) {
            if (mapping.matchesServlet(type, servletName) && !chain.contains(mapping.filter())) {
                chain.add(mapping.filter());
            }
        }
        return chain;
    }

    private List<FilterMapping> all() {
        if (after.isEmpty()) {
            return before;
        }
        List<FilterMapping> all = new ArrayList<>(before);
        all.addAll(after);
        return all;
    }
}
