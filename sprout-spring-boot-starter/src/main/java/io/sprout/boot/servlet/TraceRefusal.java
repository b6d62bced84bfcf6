package io.sprout.boot.servlet;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The container's answer to {@code TRACE} unless {@code sprout.server.allow-trace} is on: 405 with an {@code Allow}
 * header, through the error page like any {@code sendError}, before any filter or servlet sees the request.
 *
 * <p>Why the container and not the servlet: {@code HttpServlet.doTrace} echoes the request, custom and cookie-like
 * headers included, for every servlet that does not override it (Spring's {@code DispatcherServlet} falls back to it
 * unless {@code dispatchTraceRequest} is set), and an echo hands headers a script could not otherwise read to
 * whoever can make the browser send it (cross-site tracing). Tomcat ({@code allowTrace=false}) and Jetty refuse it
 * in the connector by default; so does Sprout.
 */
final class TraceRefusal {

    /** Tomcat's message, which Boot's error page reports with {@code server.error.include-message}. */
    static final String MESSAGE = "TRACE method is not allowed";

    /** Non-HTTP servlets: what Tomcat assumes any servlet answers. */
    private static final String GENERIC_SERVLET_METHODS = "GET, HEAD, POST";

    /** The {@code do*} methods that show an {@link HttpServlet} answers methods, in the order {@code Allow} lists. */
    private static final List<Map.Entry<String, List<String>>> HANDLERS = List.of(
            Map.entry("doGet", List.of("GET", "HEAD")), Map.entry("doPost", List.of("POST")),
            Map.entry("doPut", List.of("PUT")), Map.entry("doDelete", List.of("DELETE")),
            Map.entry("doPatch", List.of("PATCH")));

    private TraceRefusal() {
    }

    /**
     * Sends 405 with {@code Allow} naming the methods of the servlet the request is mapped to (none when no servlet
     * is), for the container's error handling to render.
     */
    static void refuse(HttpServletResponse response, ServletHolder servlet) throws IOException {
        String allowed = allowedMethods(servlet);
        if (allowed != null) {
            response.setHeader("Allow", allowed);
        }
        response.sendError(HttpServletResponse.SC_METHOD_NOT_ALLOWED, MESSAGE);
    }

    /**
     * The methods a servlet answers, as Tomcat works them out: for an {@link HttpServlet}, those whose {@code do*}
     * method a subclass declares, plus {@code OPTIONS} (never {@code TRACE}, which is refused); for any other servlet
     * {@code GET, HEAD, POST}.
     */
    static String allowedMethods(ServletHolder holder) {
        if (holder == null) {
            return null;
        }
        Class<?> type;
        try {
            type = holder.servlet().getClass();
        } catch (ServletException | RuntimeException e) {
            // The servlet cannot start: the refusal goes out without Allow, and the failure is reported when a
            // request the servlet would serve arrives.
            return null;
        }
        if (!HttpServlet.class.isAssignableFrom(type)) {
            return GENERIC_SERVLET_METHODS;
        }
        Set<String> declared = new HashSet<>();
        for (Class<?> current = type; current != HttpServlet.class; current = current.getSuperclass()) {
            for (Method method : current.getDeclaredMethods()) {
                declared.add(method.getName());
            }
        }
        List<String> allowed = new ArrayList<>();
        for (Map.Entry<String, List<String>> handler : HANDLERS) {
            if (declared.contains(handler.getKey())) {
                allowed.addAll(handler.getValue());
            }
        }
        allowed.add("OPTIONS");
        return String.join(", ", allowed);
    }
}
