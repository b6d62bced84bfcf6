package io.sprout.boot.servlet;

import jakarta.servlet.ServletException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ERROR line for an exception a servlet (or one of its filters) threw, worded as Tomcat's so that people and
 * log alerts who know that line recognise this one:
 * <pre>
 * Servlet.service() for servlet [dispatcherServlet] in context with path [] threw exception [Request processing
 * failed: java.lang.IllegalStateException: boom] for request [GET /owners/11] with root cause
 * java.lang.IllegalStateException: boom
 *     at ...
 * </pre>
 * As on Tomcat, a {@link ServletException} (Spring's wrapper for whatever a handler threw) is logged by its root
 * cause, the part worth reading; any other exception with its whole cause chain. The request named is the one the
 * client sent, whatever dispatch failed.
 *
 * <p>The logger is the servlet's, {@code io.sprout.boot.servlet.[/].[dispatcherServlet]} (context path, {@code /}
 * for the root context, then servlet name), as Tomcat logs under
 * {@code org.apache.catalina.core.ContainerBase.[Tomcat].[localhost].[/].[dispatcherServlet]}: one servlet's failures
 * can be raised or silenced on their own, and everything stays under {@code io.sprout.boot.servlet}.
 */
final class ServletFailureLog {

    /** Tomcat's bound on walking a cause chain, which also ends a chain that loops. */
    private static final int MAX_CAUSE_DEPTH = 20;

    private final String contextPath;
    private final String servletName;
    private final String request;

    /**
     * @param contextPath {@code ""} for the root context
     * @param servletName the servlet of the failed dispatch, or {@code null} when no servlet was mapped
     * @param request the request line's method and URI
     */
    ServletFailureLog(String contextPath, String servletName, String request) {
        this.contextPath = contextPath;
        this.servletName = servletName;
        this.request = request;
    }

    /** The failure before the response was committed: the error page answers next. */
    void threw(Throwable failure) {
        log(failure, "");
    }

    /** The failure after the response was committed: the connection is aborted, no error page can answer. */
    void threwAfterCommit(Throwable failure) {
        log(failure, " after the response was committed (the connection is aborted)");
    }

    private void log(Throwable failure, String consequence) {
        String context = contextPath.isEmpty() ? "/" : contextPath;
        Logger logger = LoggerFactory.getLogger("io.sprout.boot.servlet.[" + context + "].[" + servletName + "]");
        boolean wrapped = failure instanceof ServletException;
        logger.error("Servlet.service() for servlet [{}] in context with path [{}] threw exception [{}] for request "
                + "[{}]{}{}", servletName, contextPath, failure.getMessage(), request, consequence,
                wrapped ? " with root cause" : "", wrapped ? rootCause(failure) : failure);
    }

    static Throwable rootCause(Throwable failure) {
        Throwable root = failure;
        for (int depth = 0; depth < MAX_CAUSE_DEPTH && root.getCause() != null && root.getCause() != root; depth++) {
            root = root.getCause();
        }
        return root;
    }
}
