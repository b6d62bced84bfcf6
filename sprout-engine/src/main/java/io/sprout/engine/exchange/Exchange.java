package io.sprout.engine.exchange;

import io.sprout.engine.AsyncExchange;
import io.sprout.engine.http.BodyFraming;
import io.sprout.engine.http.HeaderNames;
import io.sprout.engine.http.HttpException;
import io.sprout.engine.http.RequestHead;
import io.sprout.engine.http.RequestRules;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.System.Logger.Level;
import java.nio.channels.FileChannel;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One request/response lifecycle: check the head, call the handler, complete the response, then drain the unread
 * request body so the connection can be reused. Failures map to outcomes here, once: a rejected head is answered
 * and closed; a handler exception before commit becomes a 500; anything after commit, or a client gone
 * mid-exchange, aborts the connection.
 *
 * <pre>
 *   run ──handler returns──▶ finish ──▶ ended (outcome returned to the transport)
 *    └──startAsync + return──▶ SUSPENDED ──complete()──▶ finish on a worker ──▶ ended ──▶ Continuation
 *                                 │  └──upgrade()──▶ UPGRADED ──complete()/abort()──▶ ended ──▶ Continuation
 *                                 └──abort(), timeout, stop()────────────────────▶ ended ──▶ Continuation
 * </pre>
 *
 * The life is one field, {@link Phase}, moved forward by compare-and-set here and only here; the response body
 * and the layers above read it through {@link #ended()} instead of keeping flags of their own.
 *
 * A blocking exchange allocates nothing for the asynchronous machinery; {@link #startAsync()} creates its
 * {@link SerialExecutor}, whose slot the handler's thread holds until the handler returns.
 */
final class Exchange implements AsyncExchange {

    private static final System.Logger LOG = System.getLogger(Exchange.class.getName());
    private static final VarHandle PHASE;

    static {
        try {
            PHASE = MethodHandles.lookup().findVarHandle(Exchange.class, "phase", Phase.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final ExchangeStream stream;
    private final RequestHead head;
    private final ServerContext context;
    private RequestBody body;
    private ExchangeResponse response;
    /** Changed only through {@link #PHASE}: a field with a VarHandle, not an atomic object per request. */
    private volatile Phase phase = Phase.HANDLING;
    private volatile SerialExecutor tasks;
    private BodyReadiness readiness;
    private volatile Runnable onShutdown;
    private EndListeners endListeners;
    private ScheduledFuture<?> timeout;

    Exchange(ExchangeStream stream, RequestHead head) {
        this.stream = stream;
        this.head = head;
        this.context = stream.context();
    }

    /** Worker thread: runs the handler; ends the exchange unless the handler suspended it. */
    Outcome run() {
        Counters counters = context.counters();
        counters.requestsTotal.increment();
        BodyFraming framing;
        try {
            framing = stream.bodyFraming(RequestRules.validate(head, context.config().limits().maxRequestBodySize()));
        } catch (HttpException rejected) {
            return answerError(rejected.status());
        }
        boolean expectContinue = framing.declaredLength() != 0 && RequestRules.expectsContinue(head);
        body = new RequestBody(context, stream.requestWire(framing, expectContinue));
        response = new ExchangeResponse(this, stream.responseWire(head, body), context.pool());
        counters.requestsActive.increment();
        Throwable failure = callHandler(new ExchangeRequest(head, body, framing.declaredLength(), this,
                stream.channel()));
        SerialExecutor suspended = tasks;
        if (suspended != null && failure == null) {
            stream.suspended();
            suspended.release();
            return Outcome.SUSPENDED;
        }
        toFinishing();
        Outcome outcome = finish(failure);
        end(outcome, null);
        return outcome;
    }

    /** The handle a handler gets from {@code startAsync()}; on the handler's thread. */
    AsyncExchange startAsync() {
        if (!PHASE.compareAndSet(this, Phase.HANDLING, Phase.ASYNC)) {
            throw new IllegalStateException("startAsync() must be called once, while the handler runs");
        }
        readiness = new BodyReadiness(this, context, body, response.responseBody());
        endListeners = new EndListeners();
        response.responseBody().guardConcurrentRelease();
        // Last: the volatile write publishes the fields above to whichever thread later sees tasks.
        tasks = SerialExecutor.occupied(context,
                () -> abort(new RejectedExecutionException("No worker or rescue thread could take its tasks")));
        // Registered now, not when the handler returns, so a stop() in between still finds and aborts it.
        context.liveExchanges().added(this);
        return this;
    }

    AsyncExchange asyncExchange() {
        return tasks == null ? null : this;
    }

    private Throwable callHandler(ExchangeRequest request) {
        try {
            context.handler().handle(request, response);
            return null;
        } catch (Exception | LinkageError | AssertionError handlerFailure) {
            if (body.failure() == null && !body.timedOut() && !(handlerFailure instanceof IOException)
                    && !(handlerFailure instanceof InterruptedException)) {
                LOG.log(Level.WARNING, "Handler failed for " + head.method() + " " + head.target(), handlerFailure);
            }
            return handlerFailure;
        }
    }

    /** Completes the response after the handler (or the asynchronous work) is done. */
    private Outcome finish(Throwable failure) {
        try {
            if (failure != null) {
                if (response.committed()) {
                    return Outcome.ABORT;
                }
                response.reset();
                response.status(500);
                response.headers().set(HeaderNames.CONNECTION, "close");
            }
            if (body.timedOut()) {
                context.counters().timedOut(body.timeoutKind());
            }
            int bodyError = body.failure() != null ? body.failure().status() : body.timedOut() ? 408 : 0;
            boolean upgraded = upgraded();
            if (bodyError != 0 && !upgraded) {
                return response.committed() ? Outcome.ABORT : answerError(bodyError);
            }
            response.responseBody().complete();
            if (upgraded || !response.keepAlive()) {
                return Outcome.CLOSE;
            }
            return body.drain(context.config().limits().maxDrainSize()) ? Outcome.KEEP_ALIVE : Outcome.CLOSE;
        } catch (IOException clientGone) {
            LOG.log(Level.DEBUG, "Connection lost during " + head.method() + " " + head.target(), clientGone);
            return Outcome.ABORT;
        } catch (RuntimeException bug) {
            // Still ends the exchange (its buffers, its counters, a graceful stop waiting for it) on an engine bug.
            LOG.log(Level.ERROR, "Completing the response to " + head.method() + " " + head.target() + " failed", bug);
            return Outcome.ABORT;
        }
    }

    private Outcome answerError(int status) {
        try {
            stream.sendError(new HttpException(status, ""));
        } catch (IOException clientGone) {
            LOG.log(Level.DEBUG, "Could not send " + status + ": " + clientGone);
        }
        return Outcome.CLOSE;
    }

    /** Releases what the exchange holds, updates the counters and tells the listeners; once. */
    private boolean end(Outcome outcome, Throwable cause) {
        Phase current;
        do {
            current = phase;
            if (current == Phase.ENDED) {
                return false;
            }
        } while (!PHASE.compareAndSet(this, current, Phase.ENDED));
        Throwable reported = outcome == Outcome.ABORT && cause == null
                ? new IOException("The connection was lost before the response completed") : cause;
        if (response != null) {
            response.responseBody().release();
            if (!upgraded()) {
                context.counters().requestsActive.decrement();
            }
        }
        SerialExecutor suspended = tasks;
        if (suspended != null) {
            cancelTimeout();
            suspended.clear();
            context.liveExchanges().removed(this);
        }
        context.shutdown().exchangeEnded();
        if (endListeners != null) {
            endListeners.tellAll(outcome == Outcome.ABORT ? reported : null);
        }
        return true;
    }

    // ---- AsyncExchange: any thread ----

    @Override
    public boolean execute(Runnable task) {
        if (ended()) {
            return false;
        }
        tasks.execute(unlessEnded(task));
        return true;
    }

    @Override
    public boolean runOrExecute(Runnable task) {
        if (ended()) {
            return false;
        }
        Runnable guarded = unlessEnded(task);
        if (!tasks.runNow(guarded)) {
            tasks.execute(guarded);
        }
        return true;
    }

    private Runnable unlessEnded(Runnable task) {
        return () -> {
            if (!ended()) {
                task.run();
            }
        };
    }

    @Override
    public void executeConcurrently(Runnable task) {
        context.workers().execute(task);
    }

    @Override
    public void timeout(Duration after, Runnable onTimeout) {
        synchronized (this) {
            cancelTimeout();
            if (!after.isZero() && !after.isNegative() && !ended()) {
                timeout = context.timer().schedule(() -> execute(onTimeout), after.toNanos(), TimeUnit.NANOSECONDS);
            }
        }
    }

    private synchronized void cancelTimeout() {
        if (timeout != null) {
            timeout.cancel(false);
            timeout = null;
        }
    }

    @Override
    public boolean requestReady() {
        return readiness.requestReady();
    }

    @Override
    public void onRequestReady(Runnable callback) {
        readiness.onRequestReady(callback);
    }

    @Override
    public void readinessCallbacksInline() {
        readiness.callbacksInline();
    }

    @Override
    public void nonBlockingResponse() {
        response.responseBody().nonBlocking();
    }

    @Override
    public boolean responseReady() {
        return response.responseBody().ready();
    }

    @Override
    public void onResponseReady(Runnable callback) {
        readiness.onResponseReady(callback);
    }

    @Override
    public boolean sendsFileRegions() {
        return response.responseBody().sendsFileRegions();
    }

    @Override
    public CompletionStage<Void> sendFileRegion(FileChannel file, long position, long count) {
        return readiness.sendFileRegion(new FileRegion(file, position, count));
    }

    /** Whether {@code 101 Switching Protocols} was sent: the response's status says so, no flag repeats it. */
    boolean upgraded() {
        return response != null && response.status() == 101;
    }

    /** Whether the exchange has ended; read by the response body, which must not lease buffers after it. */
    boolean ended() {
        return phase == Phase.ENDED;
    }

    /** Moves to {@link Phase#FINISHING} from any open phase; {@code false} when completion was already asked for. */
    private boolean toFinishing() {
        Phase current;
        do {
            current = phase;
            if (!current.open()) {
                return false;
            }
        } while (!PHASE.compareAndSet(this, current, Phase.FINISHING));
        return true;
    }

    @Override
    public void upgrade() throws IOException {
        if (response.committed()) {
            throw new IllegalStateException("Cannot upgrade: the response is already committed");
        }
        if (phase != Phase.ASYNC) {
            throw new IllegalStateException("Cannot upgrade: the exchange is " + phase);
        }
        body.becomeRaw();
        response.switchingProtocols();
        if (!PHASE.compareAndSet(this, Phase.ASYNC, Phase.UPGRADED)) {
            throw new IOException("The exchange was completed or aborted while it was being upgraded");
        }
        context.counters().requestsActive.decrement();
        response.responseBody().flush();
        context.shutdown().exchangeEnded();
    }

    @Override
    public void idleTimeout(Duration timeout) {
        body.rawIdleTimeout(timeout);
    }

    @Override
    public void onShutdown(Runnable task) {
        onShutdown = task;
    }

    /** Graceful shutdown has begun: an upgraded connection runs its shutdown task or is closed cleanly. */
    void serverShuttingDown() {
        if (phase != Phase.UPGRADED) {
            return;
        }
        Runnable task = onShutdown;
        if (task != null) {
            execute(task);
        } else {
            complete();
        }
    }

    @Override
    public void complete() {
        if (!toFinishing()) {
            return;
        }
        execute(() -> {
            Outcome outcome = finish(null);
            if (end(outcome, null)) {
                stream.resumed(outcome);
            }
        });
    }

    @Override
    public void abort(Throwable cause) {
        if (ended()) {
            return;
        }
        toFinishing();
        // Queued before the close: a read or write that the close fails, and the abort that follows it, then end
        // after this one, and the listeners hear this cause rather than the close's.
        tasks.execute(() -> {
            if (end(Outcome.ABORT, cause)) {
                stream.resumed(Outcome.ABORT);
            }
        });
        stream.abort();
    }

    @Override
    public void onEnd(Consumer<Throwable> listener) {
        endListeners.add(listener);
    }
}
