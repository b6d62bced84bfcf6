package io.sprout.engine.exchange;

import io.sprout.engine.http.RequestHead;

import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Runs the requests of one HTTP/2 connection on workers, at most {@code limit} at a time
 * ({@code maxConcurrentStreamExecution}, Tomcat's limit of the same name): a stream's exchange counts from its
 * dispatch until it ends, suspended or not, and the streams opened beyond the limit wait here in order, holding only
 * their request heads, until others end. One connection's 100 streams therefore cannot hold 100 workers or 100
 * response buffers, whether they stall on zero windows or wait in slow handlers.
 *
 * <p>Thread-safe: the event loop submits, workers end; whichever changed the count last starts what waits.
 */
final class StreamExecution {

    private final int limit;
    private final Executor workers;
    /** The pool refused a stream: it is refused to the client (and forgotten). */
    private final Consumer<Http2Stream> refused;
    /** A stream that was reset while it waited is forgotten without running. */
    private final Consumer<Http2Stream> dropped;
    private final Set<Http2Stream> running = ConcurrentHashMap.newKeySet();
    private final AtomicInteger slots = new AtomicInteger();
    private final Queue<Waiting> waiting = new ConcurrentLinkedQueue<>();

    StreamExecution(int limit, Executor workers, Consumer<Http2Stream> refused, Consumer<Http2Stream> dropped) {
        this.limit = limit;
        this.workers = workers;
        this.refused = refused;
        this.dropped = dropped;
    }

    /** Runs the stream's request now, or once a running one of this connection ends. */
    void submit(Http2Stream stream, RequestHead head) {
        hold(stream, head);
        startWaiting();
    }

    /**
     * Loop: queues the stream's request without starting anything yet; {@link #startWaiting} follows once the bytes
     * being parsed are, so that a stream they also reset (Rapid Reset) never reaches a worker.
     */
    void hold(Http2Stream stream, RequestHead head) {
        waiting.add(new Waiting(stream, head));
    }

    /** The stream's exchange ended (or it never ran): its place, if it had one, goes to the next that waits. */
    void ended(Http2Stream stream) {
        if (running.remove(stream)) {
            slots.decrementAndGet();
            startWaiting();
        }
    }

    /** The connection closed: what waits will never run, and is forgotten. */
    void dropWaiting() {
        for (Waiting next = waiting.poll(); next != null; next = waiting.poll()) {
            dropped.accept(next.stream());
        }
    }

    /** Starts what waits, as far as the limit allows; a stream reset while it waited is forgotten instead. */
    void startWaiting() {
        while (true) {
            int taken = slots.get();
            if (taken >= limit || waiting.isEmpty()) {
                return;
            }
            if (!slots.compareAndSet(taken, taken + 1)) {
                continue;
            }
            Waiting next = waiting.poll();
            if (next == null) {
                slots.decrementAndGet();
                // Another thread took it between the check and the poll; it may have left more behind.
                continue;
            }
            if (next.stream().resetCode() != null) {
                slots.decrementAndGet();
                dropped.accept(next.stream());
                continue;
            }
            run(next);
        }
    }

    private void run(Waiting next) {
        Http2Stream stream = next.stream();
        running.add(stream);
        try {
            workers.execute(() -> stream.serve(next.head()));
        } catch (RejectedExecutionException full) {
            ended(stream);
            refused.accept(stream);
        }
    }

    private record Waiting(Http2Stream stream, RequestHead head) {
    }
}
