package io.sprout.engine.hybrid;

import io.sprout.engine.exchange.ConnectionChannel;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A connection channel over a blocking socket, plaintext or TLS: a write returns once everything is written, so
 * writing "what the socket takes now" writes everything, and there is never anything to wait for before writing.
 */
interface BlockingChannel extends ConnectionChannel {

    /** Blocking sockets cannot write part of a buffer and return: this writes everything, like {@link #write}. */
    @Override
    default int writeNow(ByteBuffer src) throws IOException {
        int count = src.remaining();
        write(src);
        return count;
    }

    /** Writes never leave bytes pending here, so the task runs at once. */
    @Override
    default void whenWritable(long deadlineNanos, Runnable task) {
        task.run();
    }
}
