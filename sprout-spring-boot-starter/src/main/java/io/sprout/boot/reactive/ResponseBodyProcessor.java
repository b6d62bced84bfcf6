package io.sprout.boot.reactive;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.server.reactive.AbstractListenerWriteProcessor;

import java.io.IOException;

/**
 * Writes one publisher's buffers (the part of the body between two flushes), one buffer per engine write. It never
 * writes on the thread that delivers a buffer: {@link #isWritePossible()} only asks the {@link ResponseOutput} for
 * a writability callback, which writes on the exchange's worker. A buffer is released once the engine has it, or
 * when it is discarded on cancel or error.
 */
final class ResponseBodyProcessor extends AbstractListenerWriteProcessor<DataBuffer> {

    private final ResponseOutput output;

    ResponseBodyProcessor(ResponseOutput output, String logPrefix) {
        super(logPrefix);
        this.output = output;
    }

    @Override
    protected boolean isDataEmpty(DataBuffer data) {
        return data.readableByteCount() == 0;
    }

    /** Any thread: never here and now; the answer is {@link #onWritePossible()}, called on the worker. */
    @Override
    protected boolean isWritePossible() {
        output.whenWritable();
        return false;
    }

    /**
     * Worker: the engine takes the whole buffer (keeping what the socket does not), so it is written in full, unless
     * the output has to wait for writability first; the base class then calls again on the next callback.
     */
    @Override
    protected boolean write(DataBuffer data) throws IOException {
        if (!output.write(data)) {
            return false;
        }
        DataBufferUtils.release(data);
        return true;
    }

    /** A failed write ends this publisher and, through the flush processor, the response with the failure. */
    @Override
    protected void writingFailed(Throwable failure) {
        cancel();
        onError(failure);
    }

    @Override
    protected void discardData(DataBuffer data) {
        DataBufferUtils.release(data);
    }
}
