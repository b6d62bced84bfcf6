package io.sprout.boot.servlet;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.util.List;

/** One pass through the matched filters to the target servlet; a 404 when no servlet is mapped. */
final class SproutFilterChain implements FilterChain {

    private final List<FilterHolder> filters;
    private final ServletHolder servlet;
    private int position;

    SproutFilterChain(List<FilterHolder> filters, ServletHolder servlet) {
        this.filters = filters;
        this.servlet = servlet;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response) throws IOException, ServletException {
        if (position < filters.size()) {
            filters.get(position++).filter().doFilter(request, response, this);
            return;
        }
        if (servlet == null) {
            ((HttpServletResponse) response).sendError(HttpServletResponse.SC_NOT_FOUND);
            return;
        }
        servlet.servlet().service(request, response);
    }
}
