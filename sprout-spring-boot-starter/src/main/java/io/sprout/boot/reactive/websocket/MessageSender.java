package io.sprout.boot.reactive.websocket;

import org.reactivestreams.Subscription;
import org.springframework.web.reactive.socket.WebSocketMessage;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.MonoSink;
import reactor.util.context.Context;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * One {@code send(Publisher)} of a session: hands the application's messages to the engine several at a time, so
 * that a burst (a broadcast's messages for this session) is queued together and leaves in one write to the socket,
 * yet never more than the engine's outbound queue takes, so a send fails only when the client really stops reading.
 *
 * <p>At most {@value #MAX_IN_FLIGHT} messages and {@code maxInFlightBytes} are in the engine and not yet written; a
 * message that does not fit waits here, alone (the next one is requested only once it has gone), until enough of
 * the earlier ones are written. A message larger than the whole window goes when nothing else is in flight, which the
 * engine always takes. Messages go to the engine in the publisher's order, one thread at a time: every step runs in
 * a drain loop that whichever thread signals (the publisher's, or a writer's completing an earlier send) enters, and
 * the others only mark it to run again, so a synchronous publisher with sends completing at once does not recurse.
 *
 * <p>The send completes once the publisher has completed and everything has been written; it fails with the first
 * failed send (then the publisher is cancelled) or the publisher's error. A message's buffer is released by the
 * engine send, or here when it is never sent.
 */
final class MessageSender implements CoreSubscriber<WebSocketMessage> {

    static final int MAX_IN_FLIGHT = 32;

    /** The bytes in flight that a burst of small messages needs at most: more would only hold memory longer. */
    private static final long MAX_WINDOW = 64 * 1024;

    /** What the engine adds to a payload in its queue at most: a frame header. */
    private static final int FRAME_HEADER = 14;

    /**
     * Room left in the engine's queue for the engine's own control frames (a Pong answering a Ping: 131 bytes), so
     * that they never push an accepted window over the queue's bound.
     */
    private static final int CONTROL_ROOM = 256;

    private final Function<WebSocketMessage, CompletableFuture<Void>> engineSend;
    private final long maxInFlightBytes;
    private final MonoSink<Void> done;
    private final AtomicInteger wip = new AtomicInteger();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicLong inFlightBytes = new AtomicLong();
    private Subscription upstream;
    /** The message received and not yet sent; the next is requested only once it is gone. */
    private volatile WebSocketMessage held;
    private volatile boolean requested;
    private volatile boolean upstreamDone;
    private volatile boolean cancelled;
    private volatile Throwable failure;
    /** Touched only in the drain loop. */
    private boolean terminated;

    /**
     * @param engineSend hands one message to the engine (releasing its buffer) and returns its send future
     * @param maxInFlightBytes the most bytes in flight before a message waits here
     */
    MessageSender(Function<WebSocketMessage, CompletableFuture<Void>> engineSend, long maxInFlightBytes,
            MonoSink<Void> done) {
        this.engineSend = engineSend;
        this.maxInFlightBytes = maxInFlightBytes;
        this.done = done;
        done.onCancel(this::cancel);
    }

    /** The window for an engine queue bounded at {@code maxQueuedBytes}: what the engine is sure to take. */
    static long windowFor(long maxQueuedBytes) {
        return Math.clamp(maxQueuedBytes - CONTROL_ROOM, 0, MAX_WINDOW);
    }

    @Override
    public Context currentContext() {
        return Context.of(done.contextView());
    }

    @Override
    public void onSubscribe(Subscription subscription) {
        upstream = subscription;
        if (cancelled) {
            // Cancelled before the publisher called back: the drain loop had nothing to cancel yet.
            subscription.cancel();
            return;
        }
        drain();
    }

    @Override
    public void onNext(WebSocketMessage message) {
        held = message;
        requested = false;
        drain();
    }

    @Override
    public void onError(Throwable error) {
        upstreamDone = true;
        fail(error);
    }

    @Override
    public void onComplete() {
        upstreamDone = true;
        drain();
    }

    private void cancel() {
        cancelled = true;
        drain();
    }

    private void fail(Throwable error) {
        if (failure == null) {
            failure = error;
        }
        drain();
    }

    private void drain() {
        if (wip.getAndIncrement() != 0) {
            return;
        }
        int missed = 1;
        do {
            if (!terminated) {
                step();
            }
            missed = wip.addAndGet(-missed);
        } while (missed != 0);
    }

    /** Drain loop: sends what fits, asks for the next message, or ends. */
    private void step() {
        if (cancelled || failure != null) {
            terminated = true;
            WebSocketMessage dropped = held;
            held = null;
            if (dropped != null) {
                dropped.release();
            }
            if (!upstreamDone && upstream != null) {
                upstream.cancel();
            }
            if (!cancelled) {
                done.error(failure);
            }
            return;
        }
        WebSocketMessage next = held;
        if (next != null && fits(length(next))) {
            held = null;
            send(next);
        }
        if (held == null && !requested && !upstreamDone && inFlight.get() < MAX_IN_FLIGHT) {
            requested = true;
            // May deliver the next message at once, on this thread: onNext only marks the loop to run again.
            upstream.request(1);
        } else if (upstreamDone && held == null && inFlight.get() == 0) {
            terminated = true;
            done.success();
        }
    }

    private boolean fits(long length) {
        return inFlight.get() == 0 || inFlightBytes.get() + length <= maxInFlightBytes;
    }

    private void send(WebSocketMessage message) {
        long length = length(message);
        inFlight.incrementAndGet();
        inFlightBytes.addAndGet(length);
        CompletableFuture<Void> sent;
        try {
            sent = engineSend.apply(message);
        } catch (RuntimeException e) {
            sent = CompletableFuture.failedFuture(e);
        }
        sent.whenComplete((written, error) -> {
            inFlightBytes.addAndGet(-length);
            inFlight.decrementAndGet();
            if (error != null) {
                fail(error);
            } else {
                drain();
            }
        });
    }

    private static long length(WebSocketMessage message) {
        return message.getPayload().readableByteCount() + (long) FRAME_HEADER;
    }
}
