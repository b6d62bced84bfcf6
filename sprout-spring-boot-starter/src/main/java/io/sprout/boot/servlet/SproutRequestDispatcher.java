package io.sprout.boot.servlet;

import io.sprout.boot.servlet.http.DispatchState;
import io.sprout.boot.servlet.http.SproutRequest;
import io.sprout.boot.servlet.http.SproutResponse;
import io.sprout.boot.servlet.mapping.ServletMatch;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletRequestWrapper;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.ServletResponseWrapper;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * FORWARD and INCLUDE (Servlet spec 9). The request's dispatch state is swapped for the target's and restored
 * afterwards, so application wrappers around the request keep working; the {@code jakarta.servlet.forward.*} and
 * {@code .include.*} attributes carry the original and target paths.
 */
final class SproutRequestDispatcher implements RequestDispatcher {

    private final SproutServletContext context;
    private final String rawPath;
    private final String path;
    private final String query;
    private final ServletMatch match;
    private final ServletHolder named;

    private SproutRequestDispatcher(SproutServletContext context, String rawPath, String path, String query,
            ServletMatch match, ServletHolder named) {
        this.context = context;
        this.rawPath = rawPath;
        this.path = path;
        this.query = query;
        this.match = match;
        this.named = named;
    }

    static SproutRequestDispatcher forPath(SproutServletContext context, String rawPath, String path, String query,
            ServletMatch match) {
        return new SproutRequestDispatcher(context, rawPath, path, query, match, null);
    }

    static SproutRequestDispatcher forName(SproutServletContext context, ServletHolder servlet) {
        return new SproutRequestDispatcher(context, null, null, null, null, servlet);
    }

    @Override
    public void forward(ServletRequest request, ServletResponse response) throws ServletException, IOException {
        if (response.isCommitted()) {
            throw new IllegalStateException("Cannot forward after the response has been committed");
        }
        response.resetBuffer();
        SproutRequest base = unwrap(request);
        DispatchState previous = base.dispatchState();
        ServletInvoker invoker = new ServletInvoker(context);
        DispatchState state;
        ServletInvoker.Target target;
        if (named != null) {
            target = invoker.namedTarget(DispatcherType.FORWARD, named, previous.pathWithinContext());
            state = invoker.state(DispatcherType.FORWARD, previous.requestUri(), previous.match(),
                    previous.queryString(), previous.extraParameters(), target);
        } else {
            setForwardAttributes(base, previous);
            target = invoker.target(DispatcherType.FORWARD, path, match);
            state = invoker.state(DispatcherType.FORWARD, context.getContextPath() + rawPath, match,
                    query != null ? query : null, queryParameters(), target);
        }
        try {
            rethrow(invoker.invoke(base, request, response, state, target));
        } finally {
            base.enter(previous);
        }
        if (!request.isAsyncStarted()) {
            SproutResponse baseResponse = unwrap(response);
            if (baseResponse != null) {
                baseResponse.finish();
            }
        }
    }

    private static void setForwardAttributes(SproutRequest base, DispatchState previous) {
        if (base.getAttribute(FORWARD_REQUEST_URI) != null) {
            return;
        }
        base.setAttribute(FORWARD_REQUEST_URI, previous.requestUri());
        base.setAttribute(FORWARD_CONTEXT_PATH, base.getContextPath());
        base.setAttribute(FORWARD_SERVLET_PATH, previous.servletPath());
        setIfNotNull(base, FORWARD_PATH_INFO, previous.pathInfo());
        setIfNotNull(base, FORWARD_QUERY_STRING, previous.queryString());
        setIfNotNull(base, FORWARD_MAPPING, previous.match());
    }

    @Override
    public void include(ServletRequest request, ServletResponse response) throws ServletException, IOException {
        SproutRequest base = unwrap(request);
        DispatchState previous = base.dispatchState();
        ServletInvoker invoker = new ServletInvoker(context);
        String[] attributeNames = {INCLUDE_REQUEST_URI, INCLUDE_CONTEXT_PATH, INCLUDE_SERVLET_PATH,
                INCLUDE_PATH_INFO, INCLUDE_QUERY_STRING, INCLUDE_MAPPING};
        Map<String, Object> saved = new HashMap<>();
        for (String name : attributeNames) {
            saved.put(name, base.getAttribute(name));
        }
        ServletInvoker.Target target = named != null
                ? invoker.namedTarget(DispatcherType.INCLUDE, named, previous.pathWithinContext())
                : invoker.target(DispatcherType.INCLUDE, path, match);
        if (named == null) {
            base.setAttribute(INCLUDE_REQUEST_URI, context.getContextPath() + rawPath);
            base.setAttribute(INCLUDE_CONTEXT_PATH, context.getContextPath());
            base.setAttribute(INCLUDE_SERVLET_PATH, match == null ? path : match.servletPath());
            base.setAttribute(INCLUDE_PATH_INFO, match == null ? null : match.pathInfo());
            base.setAttribute(INCLUDE_QUERY_STRING, query);
            base.setAttribute(INCLUDE_MAPPING, match);
        }
        DispatchState state = invoker.state(DispatcherType.INCLUDE, previous.requestUri(), previous.match(),
                previous.queryString(), named == null ? queryParameters() : previous.extraParameters(), target);
        try {
            rethrow(invoker.invoke(base, request, new IncludeResponse((HttpServletResponse) response), state,
                    target));
        } finally {
            base.enter(previous);
            saved.forEach(base::setAttribute);
        }
    }

    private Map<String, List<String>> queryParameters() {
        if (query == null) {
            return Map.of();
        }
        Map<String, List<String>> parameters = new LinkedHashMap<>();
        for (String pair : query.split("&")) {
            int equals = pair.indexOf('=');
            String name = decode(equals < 0 ? pair : pair.substring(0, equals));
            String value = equals < 0 ? "" : decode(pair.substring(equals + 1));
            if (!name.isEmpty()) {
                parameters.computeIfAbsent(name, key -> new java.util.ArrayList<>()).add(value);
            }
        }
        return parameters;
    }

    private static String decode(String text) {
        try {
            return java.net.URLDecoder.decode(text, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException malformed) {
            return text;
        }
    }

    private static void setIfNotNull(SproutRequest request, String name, Object value) {
        if (value != null) {
            request.setAttribute(name, value);
        }
    }

    private static void rethrow(Throwable failure) throws ServletException, IOException {
        if (failure == null) {
            return;
        }
        if (failure instanceof ServletException servletException) {
            throw servletException;
        }
        if (failure instanceof IOException ioException) {
            throw ioException;
        }
        if (failure instanceof RuntimeException runtimeException) {
            throw runtimeException;
        }
        if (failure instanceof Error error) {
            throw error;
        }
        throw new ServletException(failure);
    }

    static SproutRequest unwrap(ServletRequest request) {
        ServletRequest current = request;
        while (current instanceof ServletRequestWrapper wrapper) {
            current = wrapper.getRequest();
        }
        if (current instanceof SproutRequest sprout) {
            return sprout;
        }
        throw new IllegalArgumentException("The request does not wrap the request Sprout passed in: "
                + request.getClass().getName());
    }

    static SproutResponse unwrap(ServletResponse response) {
        ServletResponse current = response;
        while (current instanceof ServletResponseWrapper wrapper) {
            current = wrapper.getResponse();
        }
        return current instanceof SproutResponse sprout ? sprout : null;
    }
}
