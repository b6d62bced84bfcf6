package io.sprout.boot.servlet;

import io.sprout.boot.servlet.async.SproutAsyncContext;
import io.sprout.boot.servlet.async.SproutAsyncContext.Outcome;
import io.sprout.boot.servlet.http.DispatchState;
import io.sprout.boot.servlet.http.SproutRequest;
import io.sprout.boot.servlet.http.SproutResponse;
import io.sprout.boot.servlet.mapping.RequestPaths;
import io.sprout.boot.servlet.mapping.ServletMatch;
import io.sprout.engine.AsyncExchange;
import io.sprout.engine.RequestBodyException;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.ServletException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;

/**
 * One request's life in the container: the REQUEST dispatch, error handling (ERROR dispatch to the matching
 * error page with the {@code jakarta.servlet.error.*} attributes), the async cycles and completion of the
 * response. While a cycle is pending no thread waits: the engine exchange is suspended, and decisions, timeouts
 * and aborts arrive as tasks that the engine runs on workers one at a time.
 */
final class Exchange {

    private static final Logger LOG = LoggerFactory.getLogger(Exchange.class);

    private final SproutServletContext context;
    private final ServletInvoker invoker;
    private final SproutRequest request;
    private final SproutResponse response;
    private final long startNanos;
    /** Made for the first error dispatch; most requests have none. */
    private ErrorDispatch errors;
    private DispatchState original;
    private volatile SproutAsyncContext handledAsync;
    private boolean logged;
    /**
     * The request is over for the application (listeners told, access logged, parts deleted): the container's own
     * once-guard, which comes before the engine exchange ends, not a copy of the engine's phase.
     */
    private volatile boolean requestDestroyed;
    private boolean watchingEngine;
    /** The application's upgrade has been taken over once (the engine exchange is upgraded from then on). */
    private boolean upgradeTaken;

    Exchange(SproutServletContext context, ServletInvoker invoker, SproutRequest request, SproutResponse response,
            long startNanos) {
        this.context = context;
        this.invoker = invoker;
        this.request = request;
        this.response = response;
        this.startNanos = startNanos;
    }

    /**
     * @param path the decoded path within the context
     * @param rawPath the raw path within the context
     * @throws Exception when the response failed after it was committed, so the engine aborts the connection
     */
    void run(String path, String rawPath, String query) throws Exception {
        ServletMatch match = context.match(path);
        ServletInvoker.Target target = invoker.target(DispatcherType.REQUEST, path, match);
        String contextPath = context.getContextPath();
        // The root context's URI is the raw path itself: no concatenation, which would copy it.
        String requestUri = contextPath.isEmpty() ? rawPath : contextPath + rawPath;
        original = invoker.state(DispatcherType.REQUEST, requestUri, match, query, Map.of(), target);
        request.enter(original);
        context.listeners().requestInitialized(context, request);
        boolean waiting = false;
        try {
            afterDispatch(refusedTrace(target) ? null : invoker.invoke(request, request, response, original, target));
            waiting = awaitNextCycle();
        } finally {
            if (!waiting) {
                end();
            }
        }
    }

    /**
     * Refuses {@code TRACE} unless the configuration allows it: the error status is set before any filter or servlet
     * runs, as Tomcat's connector does, so neither the application nor its security filters ever see the request.
     */
    private boolean refusedTrace(ServletInvoker.Target target) throws IOException {
        if (context.config().allowTrace() || !request.getMethod().equals("TRACE")) {
            return false;
        }
        TraceRefusal.refuse(response, target.servlet());
        return true;
    }

    /**
     * After a dispatch: when an async cycle is pending, arms its timeout and returns {@code true} with no thread
     * waiting (the engine exchange is suspended; the decision arrives through {@link #decided}); otherwise
     * completes the response.
     */
    private boolean awaitNextCycle() throws Exception {
        if (request.upgrading()) {
            if (!upgradeTaken) {
                upgradeTaken = true;
                request.enter(original);
                logAccess();
                watchEngine();
                request.upgradeConnection();
            }
            return true;
        }
        SproutAsyncContext async = request.asyncContext();
        if (async == null || async == handledAsync) {
            request.enter(original);
            logAccess();
            response.finish();
            return false;
        }
        AsyncExchange engine = request.engineExchange();
        watchEngine();
        long timeout = async.getTimeout();
        engine.timeout(timeout > 0 ? Duration.ofMillis(timeout) : Duration.ZERO, () -> inContainer(() -> timedOut(async)));
        async.whenDecided(this::decided);
        return true;
    }

    private void watchEngine() {
        if (!watchingEngine) {
            watchingEngine = true;
            request.engineExchange().onEnd(this::engineEnded);
        }
    }

    /** Any thread: the application completed or dispatched; the decision is taken on a worker. */
    private void decided(SproutAsyncContext async) {
        request.engineExchange().execute(() -> inContainer(() -> take(async)));
    }

    private void take(SproutAsyncContext async) throws Exception {
        Outcome outcome = async.take();
        if (outcome == null || async == handledAsync) {
            return;
        }
        handledAsync = async;
        request.engineExchange().timeout(Duration.ZERO, null);
        if (outcome instanceof Outcome.Dispatch dispatch) {
            asyncDispatch(async, dispatch.path());
            if (request.asyncContext() == async) {
                async.fireComplete();
            }
        } else {
            if (response.isError() && !response.isCommitted()) {
                errors().dispatch(original, response.getStatus(), response.errorMessage(), null);
            }
            async.fireComplete();
        }
        proceed();
    }

    private void timedOut(SproutAsyncContext async) throws Exception {
        if (async != request.asyncContext() || async == handledAsync) {
            return;
        }
        async.fireTimeout();
        if (!async.expireIfUndecided()) {
            // A listener completed or dispatched: decided() has queued the decision.
            return;
        }
        handledAsync = async;
        if (!response.isCommitted()) {
            errors().dispatch(original, 500, "Asynchronous request timed out", null);
        }
        async.fireComplete();
        proceed();
    }

    /** After a cycle: waits for the next one, or completes the response and the engine exchange. */
    private void proceed() throws Exception {
        if (awaitNextCycle()) {
            return;
        }
        end();
        request.engineExchange().complete();
    }

    /** The request is over for the application: access log, listeners, temporary files. Once. */
    private void end() {
        if (requestDestroyed) {
            return;
        }
        requestDestroyed = true;
        request.enter(original);
        logAccess();
        context.listeners().requestDestroyed(context, request);
        request.cleanUp();
    }

    /**
     * The engine exchange ended (on a worker): when it was aborted (client gone, server stopping) while a cycle was
     * pending, a non-blocking {@code ReadListener}/{@code WriteListener} hears {@code onError}, then the async
     * listeners {@code onError} and {@code onComplete}, as on Tomcat.
     */
    private void engineEnded(Throwable cause) {
        if (requestDestroyed || cause == null && !upgradeTaken) {
            return;
        }
        if (cause != null) {
            logEnding(cause);
        }
        inContainer(() -> {
            if (cause != null) {
                request.bodyFailed(cause);
                response.bodyFailed(cause);
            }
            SproutAsyncContext async = request.asyncContext();
            if (async != null && async != handledAsync) {
                handledAsync = async;
                async.fireError(cause);
                async.fireComplete();
            }
            end();
        });
    }

    /**
     * Runs a container task with the application's class loader; a failure aborts the engine exchange. An
     * {@link Error} ends the exchange too, and then goes on to the worker's own loop: it is not the container's to
     * swallow.
     */
    private void inContainer(ContainerTask task) {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(context.getClassLoader());
        try {
            task.run();
        } catch (Exception failure) {
            failed(failure);
        } catch (Error fatal) {
            failed(fatal);
            throw fatal;
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    private void failed(Throwable failure) {
        logEnding(failure);
        end();
        request.engineExchange().abort(failure);
    }

    /**
     * A failure that ends the exchange, with the request line: WARN, except for the client going away or a
     * timeout ({@link IOException}s, normal on a network) and the server refusing work when overloaded (counted as
     * {@code sprout.exchanges.refused}), which are DEBUG.
     */
    private void logEnding(Throwable failure) {
        String line = request.requestLineMethod() + " "
                + (original == null ? request.getRequestURI() : original.requestUri());
        if (failure instanceof IOException || failure instanceof RejectedExecutionException) {
            LOG.debug("The exchange of {} ended: {}", line, failure.toString());
        } else {
            LOG.warn("The exchange of {} failed; aborting the connection", line, failure);
        }
    }

    @FunctionalInterface
    private interface ContainerTask {
        void run() throws Exception;
    }

    /**
     * Writes the access log line once the application is done, just before the last bytes go out: logged then,
     * the line is on record by the time the client has the response (a later line would race the client).
     */
    private void logAccess() {
        AccessLog accessLog = context.config().accessLog();
        if (accessLog != null && !logged) {
            logged = true;
            accessLog.log(request, response.getStatus(), response.bytesWritten(), System.nanoTime() - startNanos);
        }
    }

    /** Handles a failure or a {@code sendError} once a dispatch returned and no async cycle is pending. */
    private void afterDispatch(Throwable failure) throws Exception {
        SproutAsyncContext async = request.asyncContext();
        boolean asyncPending = async != null && async != handledAsync;
        RequestBodyException rejected = request.bodyRejection();
        if (rejected != null && !asyncPending && !response.isCommitted()) {
            // The application answered a body the engine refused (Spring makes a failed read a 400 through
            // sendError): the engine's answer, its status with Connection: close, goes out instead, as when the
            // read's failure is thrown out of the servlet.
            LOG.debug("Request body rejected by the engine; its answer replaces the application's", rejected);
            throw rejected;
        }
        if (failure != null) {
            if (asyncPending) {
                async.fireError(failure);
                if (async.decisionAfterError()) {
                    return;
                }
                handledAsync = async;
            }
            handleFailure(failure);
        } else if (!asyncPending && response.isError()) {
            errors().dispatch(original, response.getStatus(), response.errorMessage(), null);
        }
    }

    private void handleFailure(Throwable failure) throws Exception {
        String servlet = original.match() == null ? null : original.match().servletName();
        if (rejectedBody(failure)) {
            // The engine rejected the request body (malformed, too large): it answers with its own status.
            LOG.debug("Request body rejected by the engine while servlet [{}] read it", servlet, failure);
            throw failure instanceof Exception exception ? exception : new ServletException(failure);
        }
        if (response.isCommitted()) {
            if (failure instanceof IOException) {
                // Typically the client went away mid-response: normal, not an error (STYLE.md).
                LOG.debug("Writing the response of servlet [{}] failed; aborting the connection", servlet, failure);
            } else {
                failureLog(servlet).threwAfterCommit(failure);
            }
            throw failure instanceof Exception exception ? exception : new ServletException(failure);
        }
        failureLog(servlet).threw(failure);
        errors().dispatch(original, 500, failure.getMessage(), failure);
    }

    private ErrorDispatch errors() {
        if (errors == null) {
            errors = new ErrorDispatch(context, invoker, request, response);
        }
        return errors;
    }

    private ServletFailureLog failureLog(String servlet) {
        return new ServletFailureLog(context.getContextPath(), servlet,
                request.requestLineMethod() + " " + original.requestUri());
    }

    /** Whether the engine rejected the request body, however the application wrapped the failure of its read. */
    private static boolean rejectedBody(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof RequestBodyException) {
                return true;
            }
        }
        return false;
    }

    private void asyncDispatch(SproutAsyncContext async, String target) throws Exception {
        int question = target.indexOf('?');
        String rawPath = question < 0 ? target : target.substring(0, question);
        String query = question < 0 ? null : target.substring(question + 1);
        String path = RequestPaths.normalize(rawPath);
        ServletMatch match = path == null ? null : context.match(path);
        request.setAttribute(AsyncContext.ASYNC_REQUEST_URI, original.requestUri());
        request.setAttribute(AsyncContext.ASYNC_CONTEXT_PATH, context.getContextPath());
        request.setAttribute(AsyncContext.ASYNC_SERVLET_PATH, original.servletPath());
        if (original.pathInfo() != null) {
            request.setAttribute(AsyncContext.ASYNC_PATH_INFO, original.pathInfo());
        }
        if (original.queryString() != null) {
            request.setAttribute(AsyncContext.ASYNC_QUERY_STRING, original.queryString());
        }
        if (original.match() != null) {
            request.setAttribute(AsyncContext.ASYNC_MAPPING, original.match());
        }
        ServletInvoker.Target dispatchTarget = invoker.target(DispatcherType.ASYNC, path == null ? "/" : path, match);
        DispatchState state = invoker.state(DispatcherType.ASYNC, context.getContextPath() + rawPath, match, query,
                Map.of(), dispatchTarget);
        afterDispatch(invoker.invoke(request, async.getRequest(), async.getResponse(), state, dispatchTarget));
    }
}
