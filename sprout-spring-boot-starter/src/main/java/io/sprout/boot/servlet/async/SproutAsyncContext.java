package io.sprout.boot.servlet.async;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * One asynchronous cycle of a request, from {@code startAsync()} until {@link #complete()} or a
 * {@link #dispatch()} is taken.
 *
 * <p><b>Threading model.</b> No thread waits for the cycle. The engine's exchange is suspended while the cycle is
 * pending; {@code complete()} and {@code dispatch(...)} record the decision and tell the request's container
 * exchange ({@link #whenDecided}), which takes it ({@link #take()}) on a worker, one task at a time, after the
 * dispatch that started the cycle has returned. A timeout likewise runs on a worker, through the engine's timer.
 *
 * <pre>
 *  STARTED --complete()--> COMPLETE_PENDING --taken on a worker--> (listeners onComplete)
 *     |  \--dispatch(p)--> DISPATCH_PENDING --taken on a worker--> ASYNC dispatch of p
 *     \--timeout--> onTimeout listeners; a listener may complete/dispatch, else error dispatch 500
 * </pre>
 */
public final class SproutAsyncContext implements AsyncContext {

    /** What the worker must do next. */
    public sealed interface Outcome {
        /** {@link #complete()} was called. */
        record Complete() implements Outcome {
        }

        /** {@code dispatch} was called; {@code path} is within the context, with any query string. */
        record Dispatch(String path) implements Outcome {
        }

    }

    private record Registered(AsyncListener listener, ServletRequest request, ServletResponse response) {
    }

    private static final Logger LOG = LoggerFactory.getLogger(SproutAsyncContext.class);

    private final ReentrantLock lock = new ReentrantLock();
    private final List<Registered> listeners = new ArrayList<>();
    private final ServletRequest request;
    private final ServletResponse response;
    private final boolean originalRequestAndResponse;
    private final String originalPath;
    private final ServletContext servletContext;
    private final Executor workers;
    private Outcome pending;
    private Consumer<SproutAsyncContext> onDecided;
    private boolean taken;
    private long timeoutMillis;

    /**
     * @param originalPath the path (within the context, with query) a no-argument {@link #dispatch()} goes to
     */
    public SproutAsyncContext(ServletRequest request, ServletResponse response, boolean originalRequestAndResponse,
            String originalPath, ServletContext servletContext, long timeoutMillis, Executor workers) {
        this.request = request;
        this.response = response;
        this.originalRequestAndResponse = originalRequestAndResponse;
        this.originalPath = originalPath;
        this.servletContext = servletContext;
        this.timeoutMillis = timeoutMillis;
        this.workers = workers;
    }

    /**
     * Whether the cycle is still in progress: until the worker has taken the decision. Like Tomcat, a
     * {@code dispatch()} or {@code complete()} called during the original dispatch leaves the request "async
     * started" until that dispatch returns, which is what Spring MVC checks to skip rendering.
     */
    public boolean started() {
        lock.lock();
        try {
            return !taken;
        } finally {
            lock.unlock();
        }
    }

    /** Registers who takes decisions; told at once when the cycle is already decided. Container only. */
    public void whenDecided(Consumer<SproutAsyncContext> owner) {
        boolean decidedAlready;
        lock.lock();
        try {
            onDecided = owner;
            decidedAlready = pending != null && !taken;
        } finally {
            lock.unlock();
        }
        if (decidedAlready) {
            owner.accept(this);
        }
    }

    /** The decision, once: {@code null} when none is pending or it was already taken. Container only. */
    public Outcome take() {
        lock.lock();
        try {
            if (pending == null || taken) {
                return null;
            }
            taken = true;
            return pending;
        } finally {
            lock.unlock();
        }
    }

    /**
     * After {@code onTimeout} listeners ran: whether none of them decided, in which case the cycle ends here (later
     * {@code complete()} calls are ignored) and the container answers the timeout. Container only.
     */
    public boolean expireIfUndecided() {
        lock.lock();
        try {
            if (pending != null) {
                return false;
            }
            taken = true;
            pending = new Outcome.Complete();
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * After {@code onError} listeners ran: whether one of them completed or dispatched (the worker then proceeds
     * as usual); if none did, the cycle ends here and the worker renders the error. Worker only.
     */
    public boolean decisionAfterError() {
        lock.lock();
        try {
            if (pending != null) {
                return true;
            }
            taken = true;
            pending = new Outcome.Complete();
            return false;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public ServletRequest getRequest() {
        return request;
    }

    @Override
    public ServletResponse getResponse() {
        return response;
    }

    @Override
    public boolean hasOriginalRequestAndResponse() {
        return originalRequestAndResponse;
    }

    @Override
    public void dispatch() {
        decide(new Outcome.Dispatch(originalPath));
    }

    @Override
    public void dispatch(String path) {
        decide(new Outcome.Dispatch(path));
    }

    @Override
    public void dispatch(ServletContext context, String path) {
        if (context != servletContext) {
            throw new IllegalArgumentException("Sprout hosts one servlet context; cannot dispatch to another");
        }
        dispatch(path);
    }

    @Override
    public void complete() {
        Consumer<SproutAsyncContext> owner;
        lock.lock();
        try {
            if (pending != null) {
                return;
            }
            pending = new Outcome.Complete();
            owner = onDecided;
        } finally {
            lock.unlock();
        }
        tell(owner);
    }

    private void decide(Outcome outcome) {
        Consumer<SproutAsyncContext> owner;
        lock.lock();
        try {
            if (pending != null) {
                throw new IllegalStateException("dispatch() or complete() has already been called for this "
                        + "asynchronous cycle");
            }
            pending = outcome;
            owner = onDecided;
        } finally {
            lock.unlock();
        }
        tell(owner);
    }

    private void tell(Consumer<SproutAsyncContext> owner) {
        if (owner != null) {
            owner.accept(this);
        }
    }

    /**
     * Runs the task on one of the server's workers, beside the request's own tasks (its timeout and callbacks go on
     * while the task runs), with the context class loader of the thread that called this method, as a thread it
     * started would inherit. Bounded by the workers: with platform threads it waits in the pool's queue when every
     * worker is busy.
     *
     * @throws java.util.concurrent.RejectedExecutionException when the workers and their queue are full, or the
     *     server is stopping: the caller hears of it at once rather than the task never running
     */
    @Override
    public void start(Runnable run) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        workers.execute(() -> {
            Thread thread = Thread.currentThread();
            ClassLoader previous = thread.getContextClassLoader();
            thread.setContextClassLoader(loader);
            try {
                run.run();
            } catch (RuntimeException failure) {
                // Logged here, with the request: thrown on, it would end a pool thread and reach only stderr. An
                // Error does go on, to the worker's own handler.
                LOG.warn("The AsyncContext.start task of {} failed", requestLine(), failure);
            } finally {
                thread.setContextClassLoader(previous);
            }
        });
    }

    private String requestLine() {
        return request instanceof HttpServletRequest http ? http.getMethod() + " " + http.getRequestURI()
                : "a request";
    }

    @Override
    public void addListener(AsyncListener listener) {
        addListener(listener, request, response);
    }

    @Override
    public void addListener(AsyncListener listener, ServletRequest servletRequest, ServletResponse servletResponse) {
        synchronized (listeners) {
            listeners.add(new Registered(listener, servletRequest, servletResponse));
        }
    }

    @Override
    public <T extends AsyncListener> T createListener(Class<T> type) throws ServletException {
        try {
            return type.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new ServletException("Cannot create AsyncListener " + type.getName(), e);
        }
    }

    @Override
    public void setTimeout(long timeout) {
        lock.lock();
        try {
            timeoutMillis = timeout;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public long getTimeout() {
        lock.lock();
        try {
            return timeoutMillis;
        } finally {
            lock.unlock();
        }
    }

    public void fireComplete() {
        fire(Kind.COMPLETE, null);
    }

    public void fireTimeout() {
        fire(Kind.TIMEOUT, null);
    }

    public void fireError(Throwable error) {
        fire(Kind.ERROR, error);
    }

    /** Called when the application starts a new cycle during this one's ASYNC dispatch (Servlet spec 2.3.3.3). */
    public void fireStartAsync(SproutAsyncContext next) {
        for (Registered registered : snapshot()) {
            try {
                registered.listener().onStartAsync(new AsyncEvent(next, registered.request(), registered.response()));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }

    private enum Kind { COMPLETE, TIMEOUT, ERROR }

    private void fire(Kind kind, Throwable error) {
        for (Registered registered : snapshot()) {
            AsyncEvent event = new AsyncEvent(this, registered.request(), registered.response(), error);
            try {
                switch (kind) {
                    case COMPLETE -> registered.listener().onComplete(event);
                    case TIMEOUT -> registered.listener().onTimeout(event);
                    case ERROR -> registered.listener().onError(event);
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }

    private List<Registered> snapshot() {
        synchronized (listeners) {
            return List.copyOf(listeners);
        }
    }
}
