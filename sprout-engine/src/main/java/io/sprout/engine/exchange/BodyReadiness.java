package io.sprout.engine.exchange;

import io.sprout.engine.TimeoutKind;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * The readiness callbacks of a suspended exchange's two body streams. A callback is armed on the body's wire
 * ({@link RequestWire#whenReadable}/{@link ResponseWire#whenWritable}), whose task only hands the real work
 * to the exchange's serial executor: there, on a worker, the request body reads what the socket has (or records why
 * it cannot) and the response body sends what is pending, before the application's callback runs. A file region
 * that the socket did not take at once is sent the same way, with no callback of the application's waiting for it.
 */
final class BodyReadiness {

    private final Exchange exchange;
    private final ServerContext context;
    private final RequestBody requestBody;
    private final ResponseBody responseBody;
    private final long writeTimeoutNanos;
    /** Whether a callback whose readiness came later runs on the thread that saw it, when the exchange is idle. */
    private volatile boolean inline;

    BodyReadiness(Exchange exchange, ServerContext context, RequestBody requestBody, ResponseBody responseBody) {
        this.exchange = exchange;
        this.context = context;
        this.requestBody = requestBody;
        this.responseBody = responseBody;
        this.writeTimeoutNanos = context.config().timeouts().write().toNanos();
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
        armWritable(callback, System.nanoTime() + writeTimeoutNanos);
    }

    /** Sends what the socket takes of {@code region} now, and the rest as it takes more. */
    CompletionStage<Void> sendFileRegion(FileRegion region) {
        try {
            responseBody.sendFileRegion(region);
        } catch (IOException failed) {
            region.fail(failed);
            return region.sent();
        } catch (RuntimeException misuse) {
            region.fail(misuse);
            throw misuse;
        }
        if (!responseBody.ready()) {
            onResponseReady(() -> {
                // Nothing more to do: by now the region is sent, and its stage has said so.
            });
        }
        return region.sent();
    }

    private void armWritable(Runnable callback, long deadline) {
        responseBody.whenWritable(deadline, () -> dispatch(() -> {
            long fileBytesBefore = responseBody.unsentFileBytes();
            try {
                if (responseBody.drainPending()) {
                    callback.run();
                    return;
                }
            } catch (IOException clientGone) {
                exchange.abort(clientGone);
                return;
            }
            // A file region goes as fast as the client takes it, however long that is: the write timeout bounds each
            // wait for the client to take more of it, not the whole region. Buffered bytes are few, and bound whole.
            long now = System.nanoTime();
            long next = responseBody.unsentFileBytes() < fileBytesBefore ? now + writeTimeoutNanos : deadline;
            if (now - next >= 0) {
                context.counters().timedOut(TimeoutKind.WRITE);
                exchange.abort(new SocketTimeoutException("The client did not read the response in time"));
                return;
            }
            armWritable(callback, next);
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
