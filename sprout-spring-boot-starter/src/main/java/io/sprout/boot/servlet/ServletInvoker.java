package io.sprout.boot.servlet;

import io.sprout.boot.servlet.http.DispatchState;
import io.sprout.boot.servlet.http.SproutRequest;
import io.sprout.boot.servlet.mapping.ServletMatch;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;

import java.util.List;
import java.util.Map;

/** Resolves the servlet and filters of a dispatch and runs them with the request in the dispatch's state. */
final class ServletInvoker {

    /** The servlet and filters one dispatch runs. */
    record Target(ServletHolder servlet, List<FilterHolder> filters) {

        boolean asyncSupported() {
            if (servlet != null && !servlet.asyncSupported()) {
                return false;
            }
            // A loop, not a stream: this runs on every dispatch, and a stream is five objects each time.
            for (FilterHolder filter : filters) {
                if (!filter.asyncSupported()) {
                    return false;
                }
            }
            return true;
        }
    }

    private final SproutServletContext context;

    ServletInvoker(SproutServletContext context) {
        this.context = context;
    }

    Target target(DispatcherType type, String path, ServletMatch match) {
        ServletHolder servlet = match == null ? null : context.servlet(match.servletName());
        return new Target(servlet, context.filterMappings().chainFor(type, path, match));
    }

    Target namedTarget(DispatcherType type, ServletHolder servlet, String path) {
        ServletMatch byName = new ServletMatch(servlet.getName(), path, null,
                jakarta.servlet.http.MappingMatch.EXACT, "", "");
        List<FilterHolder> filters = context.filterMappings().chainFor(type, path, byName);
        return new Target(servlet, filters);
    }

    DispatchState state(DispatcherType type, String requestUri, ServletMatch match, String query,
            Map<String, List<String>> extraParameters, Target target) {
        return new DispatchState(type, requestUri, match, query, extraParameters,
                target.servlet() == null ? null : target.servlet().multipartConfig(), target.asyncSupported());
    }

    /**
     * Enters the state and runs the chain. Top-level dispatches (REQUEST, ASYNC, ERROR) keep their state after
     * returning, because the application may still read the request from another thread while async processing
     * waits; nested ones (FORWARD, INCLUDE) are restored by their dispatcher.
     *
     * @return what the chain threw, or {@code null}
     */
    Throwable invoke(SproutRequest base, ServletRequest request, ServletResponse response, DispatchState state,
            Target target) {
        base.enter(state);
        try {
            new SproutFilterChain(target.filters(), target.servlet()).doFilter(request, response);
            return null;
        } catch (VirtualMachineError fatal) {
            throw fatal;
        } catch (Throwable failure) {
            // The boundary of the application, as the engine's handler call is for the engine: whatever a servlet
            // or filter throws, an Error such as an AssertionError or a NoClassDefFoundError included, becomes the
            // spec's error dispatch (a 500 page, or an abort once committed) and is logged at ERROR by the caller,
            // as Tomcat's StandardWrapperValve does. Returned, not swallowed; only a VirtualMachineError, after
            // which nothing can be trusted, goes on to the worker's loop.
            return failure;
        }
    }
}
