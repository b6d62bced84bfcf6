package io.sprout.engine.exchange;

import io.sprout.engine.TimeoutKind;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.concurrent.TimeUnit;

/**
 * The readiness callbacks of a suspended exchange's two body streams. A callback is armed on the body's wire
 * ({@link RequestWire#whenReadable}/{@link ResponseWire#whenWritable}), whose task only hands the real work
 * to the exchange's serial executor: there, on a worker, the request body reads what the socket has (or records why
 * it cannot) and the response body sends what is pending, before the application's callback runs.
 */
final class BodyReadiness {

    private final Exchange exchange;
    private final ServerContext context;
    private final RequestBody requestBody;
    private final ResponseBody responseBody;
    /** Whether a callback whose readiness came later runs on the thread that saw it, when the exchange is idle. */
    private volatile boolean inline;

    BodyReadiness(Exchange exchange, ServerContext context, RequestBody requestBody, ResponseBody responseBody) {
        this.exchange = exchange;
        this.context = context;
        this.requestBody = requestBody;
        this.responseBody = responseBody;
    }

    /** See {@link io.sprout.engine.AsyncExchange#readinessCallbacksInline()}. */
    void callbacksInline() {
        inline = true;
    }

    boolean requestReady() {
        return requestBody.ready();
    }

    void onRequestReady(Runnable callback) {
        if (!requestBody.ready()) {
            requestBody.continueBeforeWaiting();
        }
        if (requestBody.ready()) {
            exchange.execute(callback);
            return;
        }
        long armed = System.nanoTime();
        long wait = exchange.upgraded() ? TimeUnit.MILLISECONDS.toNanos(requestBody.rawIdleMillis())
                : requestBody.allowedWaitNanos(armed);
        long deadline = armed + Math.max(0, wait);
        requestBody.whenReadable(deadline, () -> dispatch(() -> {
            requestBody.fillForReader(armed, deadline);
            callback.run();
        }));
    }

    void onResponseReady(Runnable callback) {
        if (responseBody.ready()) {
            exchange.execute(callback);
            return;
        }
        armWritable(callback, System.nanoTime() + context.config().timeouts().write().toNanos());
    }

    private void armWritable(Runnable callback, long deadline) {
        responseBody.whenWritable(deadline, () -> dispatch(() -> {
            try {
                if (responseBody.drainPending()) {
                    callback.run();
                    return;
                }
            } catch (IOException clientGone) {
                exchange.abort(clientGone);
                return;
            }
            if (System.nanoTime() - deadline >= 0) {
                context.counters().timedOut(TimeoutKind.WRITE);
                exchange.abort(new SocketTimeoutException("The client did not read the response in time"));
                return;
            }
            armWritable(callback, deadline);
        }));
    }

    /** Called by the thread that saw the readiness: the loop, its sweep, or the closing connection. */
    private void dispatch(Runnable work) {
        if (inline) {
            exchange.runOrExecute(work);
        } else {
            exchange.execute(work);
        }
    }
}
