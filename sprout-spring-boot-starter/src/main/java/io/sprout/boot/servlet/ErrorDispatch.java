package io.sprout.boot.servlet;

import io.sprout.boot.servlet.http.DispatchState;
import io.sprout.boot.servlet.http.SproutRequest;
import io.sprout.boot.servlet.http.SproutResponse;
import io.sprout.boot.servlet.mapping.RequestPaths;
import io.sprout.boot.servlet.mapping.ServletMatch;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** The ERROR dispatch of one request (Servlet spec 10.9): the error page, its attributes, or the default text. */
final class ErrorDispatch {

    private static final Logger LOG = LoggerFactory.getLogger(ErrorDispatch.class);

    private final SproutServletContext context;
    private final ServletInvoker invoker;
    private final SproutRequest request;
    private final SproutResponse response;

    ErrorDispatch(SproutServletContext context, ServletInvoker invoker, SproutRequest request,
            SproutResponse response) {
        this.context = context;
        this.invoker = invoker;
        this.request = request;
        this.response = response;
    }

    /**
     * Answers with {@code status}: through the error page mapped to the failure or the status, with the
     * {@code jakarta.servlet.error.*} attributes, or with a plain default text when none is mapped. An error page
     * that itself sends an error leaves the body empty.
     */
    void dispatch(DispatchState original, int status, String message, Throwable failure) throws IOException {
        Throwable cause = unwrap(failure);
        String page = failure != null ? context.errorPages().forException(failure) : context.errorPages()
                .forStatus(status);
        response.beginErrorOutput();
        response.setStatus(status);
        if (page == null) {
            writeDefaultError(status, message);
            return;
        }
        setErrorAttributes(original, status, message, cause);
        String pagePath = RequestPaths.normalize(page);
        ServletMatch match = context.match(pagePath);
        ServletInvoker.Target target = invoker.target(DispatcherType.ERROR, pagePath, match);
        DispatchState state = invoker.state(DispatcherType.ERROR, context.getContextPath() + page, match, null,
                Map.of(), target);
        Throwable pageFailure = invoker.invoke(request, request, response, state, target);
        if (pageFailure != null) {
            LOG.error("The error page {} failed while handling status {}", page, status, pageFailure);
            if (!response.isCommitted()) {
                response.beginErrorOutput();
                response.setStatus(500);
                writeDefaultError(500, null);
            }
        } else if (response.isError() && !response.isCommitted()) {
            // The error page answered with a sendError of its own (Spring Security denying /error to an anonymous
            // client is the usual case): its status and headers are the answer, with an empty body. Tomcat counts
            // the error as reported once its page has run and writes no report over it.
            response.beginErrorOutput();
        }
    }

    /** The {@code jakarta.servlet.error.*} attributes Boot's error controller reads (Servlet spec 10.9.1). */
    private void setErrorAttributes(DispatchState original, int status, String message, Throwable cause) {
        request.setAttribute(RequestDispatcher.ERROR_STATUS_CODE, status);
        request.setAttribute(RequestDispatcher.ERROR_MESSAGE, message == null ? "" : message);
        request.setAttribute(RequestDispatcher.ERROR_REQUEST_URI, original.requestUri());
        request.setAttribute(RequestDispatcher.ERROR_METHOD, request.getMethod());
        if (original.queryString() != null) {
            request.setAttribute(RequestDispatcher.ERROR_QUERY_STRING, original.queryString());
        }
        if (original.match() != null) {
            request.setAttribute(RequestDispatcher.ERROR_SERVLET_NAME, original.match().servletName());
        }
        if (cause != null) {
            request.setAttribute(RequestDispatcher.ERROR_EXCEPTION, cause);
            request.setAttribute(RequestDispatcher.ERROR_EXCEPTION_TYPE, cause.getClass());
        }
    }

    private static Throwable unwrap(Throwable failure) {
        Throwable current = failure;
        while (current instanceof ServletException servletException && servletException.getRootCause() != null) {
            current = servletException.getRootCause();
        }
        return current;
    }

    private void writeDefaultError(int status, String message) throws IOException {
        response.setContentType("text/plain;charset=UTF-8");
        String text = "HTTP Status " + status + (message == null || message.isEmpty() ? "" : " - " + message);
        response.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
    }
}
