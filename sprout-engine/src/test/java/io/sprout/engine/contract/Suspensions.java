package io.sprout.engine.contract;

import io.sprout.engine.RequestHandler;
import io.sprout.engine.HttpRequest;
import io.sprout.engine.HttpResponse;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A handler that suspends every request and hands its exchange to the test, in arrival order. */
final class Suspensions implements RequestHandler {

    private final BlockingQueue<Suspended> suspended = new LinkedBlockingQueue<>();

    @Override
    public void handle(HttpRequest request, HttpResponse response) {
        suspended.add(Suspended.start(request, response));
    }

    /** The next suspended exchange; waits for its request to arrive. */
    Suspended next() {
        try {
            Suspended next = suspended.poll(Await.LIMIT.toMillis(), TimeUnit.MILLISECONDS);
            if (next == null) {
                throw new AssertionError("No request was suspended in time");
            }
            return next;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
