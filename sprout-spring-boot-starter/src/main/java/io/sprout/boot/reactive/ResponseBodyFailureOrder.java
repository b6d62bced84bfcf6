package io.sprout.boot.reactive;

import io.sprout.engine.AsyncExchange;
import org.reactivestreams.Processor;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import org.springframework.core.io.buffer.DataBuffer;

/**
 * Stands in front of the {@link ResponseBodyFlushProcessor} to order a failure of the application's body after
 * the write in progress: the failure may arrive on any thread while the current publisher's write waits for, or
 * runs in, an exchange task. Spring's processors assume a Servlet container, where the write would have happened
 * on the thread that delivered the buffer and be over already; here, told at once, the flush processor would
 * complete while its current write processor goes on, and that one's completion would then be refused
 * ({@code IllegalStateException: COMPLETED}), or its buffer be released under the write. So the failure is
 * handed to the exchange, which runs it after the write and then ends the current publisher and the body with it.
 * Every other signal passes straight through.
 */
final class ResponseBodyFailureOrder implements Processor<Publisher<? extends DataBuffer>, Void> {

    private final ResponseBodyFlushProcessor flushProcessor;
    private final AsyncExchange exchange;

    ResponseBodyFailureOrder(ResponseBodyFlushProcessor flushProcessor, AsyncExchange exchange) {
        this.flushProcessor = flushProcessor;
        this.exchange = exchange;
    }

    @Override
    public void onSubscribe(Subscription subscription) {
        flushProcessor.onSubscribe(subscription);
    }

    @Override
    public void onNext(Publisher<? extends DataBuffer> publisher) {
        flushProcessor.onNext(publisher);
    }

    @Override
    public void onError(Throwable failure) {
        if (!exchange.execute(() -> flushProcessor.abort(failure))) {
            // The exchange has ended: its end listener has aborted the body already, and this changes nothing.
            flushProcessor.abort(failure);
        }
    }

    @Override
    public void onComplete() {
        flushProcessor.onComplete();
    }

    @Override
    public void subscribe(Subscriber<? super Void> subscriber) {
        flushProcessor.subscribe(subscriber);
    }
}
