package io.sprout.boot.servlet.async;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One asynchronous cycle of a request, from {@code startAsync()} until {@link #complete()} or a
 * {@link #dispatch()} is taken.
 *
 * <p><b>Threading model.</b> The engine completes a response when its handler returns, so the worker that ran
 * the original dispatch does not return: it calls {@link #awaitOutcome()} and blocks until an application thread
 * calls {@code complete()} or {@code dispatch(...)}, or the timeout passes. The worker then performs the ASYNC
 * dispatch itself, so every container callback runs on the request's own worker. Blocking a worker is what the
 * engine's threading model allows (handlers may block), and with virtual threads the waiting costs a parked
 * continuation rather than an OS thread; with a platform pool it holds one pool thread per pending request, as
 * Tomcat's pre-NIO connectors did.
 *
 * <pre>
 *  STARTED --complete()--> COMPLETE_PENDING --worker--> (listeners onComplete)
 *     |  \--dispatch(p)--> DISPATCH_PENDING --worker--> ASYNC dispatch of p
 *     \--timeout--> worker fires onTimeout; a listener may complete/dispatch, else error dispatch 500
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

        /** The timeout passed with neither. */
        record Timeout() implements Outcome {
        }
    }

    private record Registered(AsyncListener listener, ServletRequest request, ServletResponse response) {
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition decided = lock.newCondition();
    private final List<Registered> listeners = new ArrayList<>();
    private final ServletRequest request;
    private final ServletResponse response;
    private final boolean originalRequestAndResponse;
    private final String originalPath;
    private final ServletContext servletContext;
    private Outcome pending;
    private boolean taken;
    private long timeoutMillis;

    /**
     * @param originalPath the path (within the context, with query) a no-argument {@link #dispatch()} goes to
     */
    public SproutAsyncContext(ServletRequest request, ServletResponse response, boolean originalRequestAndResponse,
            String originalPath, ServletContext servletContext, long timeoutMillis) {
        this.request = request;
        this.response = response;
        this.originalRequestAndResponse = originalRequestAndResponse;
        this.originalPath = originalPath;
        this.servletContext = servletContext;
        this.timeoutMillis = timeoutMillis;
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

    /**
     * Blocks the calling worker until the application decides or the timeout passes. Called only by the worker
     * that owns the request.
     */
    public Outcome awaitOutcome() throws InterruptedException {
        lock.lock();
        try {
            long remaining = timeoutMillis > 0 ? TimeUnit.MILLISECONDS.toNanos(timeoutMillis) : Long.MAX_VALUE;
            while (pending == null) {
                if (timeoutMillis <= 0) {
                    decided.await();
                } else if (remaining <= 0) {
                    return new Outcome.Timeout();
                } else {
                    remaining = decided.awaitNanos(remaining);
                }
            }
            taken = true;
            return pending;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Ends the wait after a timeout: the decision a listener made, or {@code null} when none did (the cycle is
     * then over and later {@code complete()} calls are ignored). Worker only.
     */
    public Outcome decisionAfterTimeout() {
        lock.lock();
        try {
            taken = true;
            if (pending == null) {
                pending = new Outcome.Complete();
                return null;
            }
            return pending;
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
        lock.lock();
        try {
            if (pending == null) {
                pending = new Outcome.Complete();
                decided.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    private void decide(Outcome outcome) {
        lock.lock();
        try {
            if (pending != null) {
                throw new IllegalStateException("dispatch() or complete() has already been called for this "
                        + "asynchronous cycle");
            }
            pending = outcome;
            decided.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Runs the task on a new virtual thread: cheap, and never one of the engine's bounded workers. */
    @Override
    public void start(Runnable run) {
        Thread.ofVirtual().name("sprout-async-start").start(run);
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
