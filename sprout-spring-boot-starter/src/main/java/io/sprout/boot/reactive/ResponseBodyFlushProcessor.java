package io.sprout.boot.reactive;

import org.reactivestreams.Processor;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.server.reactive.AbstractListenerWriteFlushProcessor;

import java.io.IOException;

/**
 * Writes the response body as a sequence of publishers with a flush after each (one publisher for
 * {@code writeWith}, one per flush for {@code writeAndFlushWith}). It is the {@link ResponseOutput}'s listener:
 * each writability callback goes to the flush step waiting for it, and to the current publisher's
 * {@link ResponseBodyProcessor}.
 */
final class ResponseBodyFlushProcessor extends AbstractListenerWriteFlushProcessor<DataBuffer>
        implements ResponseOutput.Listener {

    private final ResponseOutput output;
    private volatile ResponseBodyProcessor current;

    ResponseBodyFlushProcessor(ResponseOutput output, String logPrefix) {
        super(logPrefix);
        this.output = output;
    }

    @Override
    protected Processor<? super DataBuffer, Void> createWriteProcessor() {
        ResponseBodyProcessor processor = new ResponseBodyProcessor(output, getLogPrefix());
        current = processor;
        return processor;
    }

    /** Any thread: as for writes, the answer comes on the worker, through {@link #writable()}. */
    @Override
    protected boolean isWritePossible() {
        output.whenWritable();
        return false;
    }

    /** Any thread: the flush happens on the worker before anything else is written. */
    @Override
    protected void flush() {
        output.flushLater();
    }

    /** Asked only once the source of publishers has completed: see {@link ResponseOutput#bodyEnded()}. */
    @Override
    protected boolean isFlushPending() {
        return output.bodyEnded();
    }

    @Override
    public void writable() {
        onFlushPossible();
        ResponseBodyProcessor processor = current;
        if (processor != null) {
            processor.onWritePossible();
        }
    }

    @Override
    public void flushFailed(IOException failure) {
        flushingFailed(failure);
    }

    /**
     * The body failed, or the exchange ended before the body did: the source of publishers and the current one are
     * cancelled, the buffer waiting to be written is released, and the result subscriber hears {@code cause}. On
     * the exchange's worker, or once the exchange has ended, so never during a write.
     */
    void abort(Throwable cause) {
        cancel();
        ResponseBodyProcessor processor = current;
        if (processor != null) {
            processor.cancel();
            processor.onError(cause);
        }
        onError(cause);
    }
}
