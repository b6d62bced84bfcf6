package io.sprout.engine.contract;

import io.sprout.engine.AsyncExchange;
import io.sprout.engine.HttpRequest;
import io.sprout.engine.HttpResponse;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A suspended exchange as a test holds it: the request, the response and the handle, plus every end the exchange
 * reported to its {@link AsyncExchange#onEnd} listener (so a test can check it was told exactly once).
 */
final class Suspended {

    final HttpRequest request;
    final HttpResponse response;
    final AsyncExchange async;
    private final List<Throwable> endings = Collections.synchronizedList(new ArrayList<>());
    private final CompletableFuture<Throwable> firstEnd = new CompletableFuture<>();

    private Suspended(HttpRequest request, HttpResponse response) {
        this.request = request;
        this.response = response;
        this.async = request.startAsync();
        async.onEnd(this::ended);
    }

    /** Suspends the exchange; call on the handler's thread. */
    static Suspended start(HttpRequest request, HttpResponse response) {
        return new Suspended(request, response);
    }

    /** Writes {@code text} as the whole body and completes, from the calling thread. */
    void answer(String text) {
        try {
            response.headers().set("Content-Type", "text/plain");
            response.body().write(text.getBytes(StandardCharsets.UTF_8));
        } catch (IOException clientGone) {
            async.abort(clientGone);
            return;
        }
        async.complete();
    }

    /** Waits for the end: {@code null} for a completed response, else the cause of the abort. */
    Throwable awaitEnd() {
        return Await.future(firstEnd, "the exchange ends");
    }

    /** Every end the listener was told of, in order. */
    List<Throwable> endings() {
        synchronized (endings) {
            return new ArrayList<>(endings);
        }
    }

    private void ended(Throwable cause) {
        endings.add(cause);
        firstEnd.complete(cause);
    }
}
