package io.sprout.boot.servlet;

import jakarta.servlet.ServletException;

import java.util.List;

/**
 * Finds the error page for an exception or a status (Servlet spec 10.9.2): an exception page for the type or its
 * nearest superclass (then, as Tomcat does, for a {@link ServletException}'s root cause), else the page for the
 * status, else the global page.
 */
final class ErrorPages {

    private final List<ErrorPage> pages;

    ErrorPages(List<ErrorPage> pages) {
        this.pages = List.copyOf(pages);
    }

    /** The page for an uncaught exception (status 500 when only a status page applies), or {@code null}. */
    String forException(Throwable failure) {
        Throwable unwrapped = failure;
        while (unwrapped instanceof ServletException servletException && servletException.getRootCause() != null) {
            unwrapped = servletException.getRootCause();
        }
        String page = byType(failure);
        if (page == null && unwrapped != failure) {
            page = byType(unwrapped);
        }
        return page != null ? page : forStatus(500);
    }

    /** The page for a status, or the global page, or {@code null}. */
    String forStatus(int status) {
        String global = null;
        for (ErrorPage page : pages) {
            if (page.status() == status) {
                return page.path();
            }
            if (page.global() && global == null) {
                global = page.path();
            }
        }
        return global;
    }

    private String byType(Throwable failure) {
        for (Class<?> type = failure.getClass(); type != null; type = type.getSuperclass()) {
            for (ErrorPage page : pages) {
                if (page.exception() == type) {
                    return page.path();
                }
            }
        }
        return null;
    }
}
