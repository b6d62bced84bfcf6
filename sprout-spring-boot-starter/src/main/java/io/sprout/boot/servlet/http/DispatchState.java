package io.sprout.boot.servlet.http;

import io.sprout.boot.servlet.mapping.ServletMatch;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.MultipartConfigElement;

import java.util.List;
import java.util.Map;

/**
 * The part of a request that changes with each dispatch (REQUEST, FORWARD, INCLUDE, ASYNC, ERROR): what the path
 * methods report and which servlet runs. A dispatch pushes a new state on the request and restores the old one
 * when it returns.
 *
 * @param type the dispatcher type
 * @param requestUri what {@code getRequestURI()} reports (raw, with the context path)
 * @param match the servlet mapping, giving servlet path, path info and {@code HttpServletMapping}
 * @param queryString what {@code getQueryString()} reports
 * @param extraParameters parameters from a dispatch target's query string, which take precedence; may be empty
 * @param multipartConfig the target servlet's multipart config, or {@code null}
 * @param asyncSupported whether the servlet and every filter of this dispatch support async
 */
public record DispatchState(DispatcherType type, String requestUri, ServletMatch match, String queryString,
        Map<String, List<String>> extraParameters, MultipartConfigElement multipartConfig, boolean asyncSupported) {

    public String servletPath() {
        return match == null ? "" : match.servletPath();
    }

    public String pathInfo() {
        return match == null ? null : match.pathInfo();
    }

    /** Servlet path plus path info: the decoded path within the context. */
    public String pathWithinContext() {
        String info = pathInfo();
        return info == null ? servletPath() : servletPath() + info;
    }
}
