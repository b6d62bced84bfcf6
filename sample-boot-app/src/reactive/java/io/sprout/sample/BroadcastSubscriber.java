package io.sprout.sample;

import java.util.concurrent.atomic.AtomicInteger;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;
import reactor.util.concurrent.Queues;

/**
 * The outbound queue of one {@code /ws/broadcast} session on WebFlux. At most {@value #MAX_PENDING} messages wait
 * for the socket; beyond that a broadcast message is refused and counted as failed, so a slow reader costs bounded
 * memory (the Spring MVC build closes such a session instead). The queue grows in small chunks: ten thousand idle
 * subscribers must not each hold a preallocated array.
 * <p>
 * Emissions are serialised with this object's monitor: broadcasts run on request threads, completion on the event
 * loop, and a Reactor sink refuses concurrent emissions.
 */
final class BroadcastSubscriber {

    static final int MAX_PENDING = 4_096;

    private static final int QUEUE_CHUNK = 16;

    private final Sinks.Many<String> sink = Sinks.many().unicast().onBackpressureBuffer(
            Queues.<String>unbounded(QUEUE_CHUNK).get());

    private final AtomicInteger pending = new AtomicInteger();

    /** The messages to send, in order; one subscriber only (the session's {@code send}). */
    Flux<String> messages() {
        return this.sink.asFlux().doOnNext((text) -> this.pending.decrementAndGet());
    }

    /** Queues one message; {@code false} if the queue is full or the session is gone. Never blocks. */
    synchronized boolean offer(String text) {
        if (this.pending.incrementAndGet() > MAX_PENDING) {
            this.pending.decrementAndGet();
            return false;
        }
        if (this.sink.tryEmitNext(text).isFailure()) {
            this.pending.decrementAndGet();
            return false;
        }
        return true;
    }

    /** Ends the outbound stream once the queued messages are sent. */
    synchronized void complete() {
        // A second completion (the session ending from both sides) fails harmlessly: the stream is already over.
        this.sink.tryEmitComplete();
    }

}
