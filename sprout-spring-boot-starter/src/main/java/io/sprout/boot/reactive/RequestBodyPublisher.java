package io.sprout.boot.reactive;

import io.sprout.engine.AsyncExchange;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.http.server.reactive.AbstractListenerReadPublisher;

import java.io.IOException;
import java.io.InputStream;

/**
 * The request body as a publisher of {@link DataBuffer}s, read from the engine's body stream only while the
 * subscriber has demand: with none, nothing asks the engine for read readiness, so the engine leaves the bytes in
 * the socket and TCP holds the client back. That is the whole of the backpressure.
 *
 * <p>Every read happens on the exchange's worker: demand may arrive on any thread (a timer, a scheduler), so
 * {@link #checkOnDataAvailable()} hands the reading to the exchange instead of reading where it is called, and the
 * engine's readiness callback runs there too. The engine promises that one read after {@code requestReady()} does
 * not wait, so a chunk is filled with reads each preceded by that check.
 */
final class RequestBodyPublisher extends AbstractListenerReadPublisher<DataBuffer> {

    private final AsyncExchange exchange;
    private final InputStream body;
    private final DataBufferFactory bufferFactory;
    private final int chunkSize;
    /** Made at the first read: most requests (a GET) have no body, and 16 KiB each would be most of their garbage. */
    private byte[] chunk;
    /** Worker only: a readiness callback is asked for and has not run yet (the engine keeps one at a time). */
    private boolean armed;
    /** Worker only: the body has ended; completion is pending in the base class. */
    private boolean ended;

    RequestBodyPublisher(AsyncExchange exchange, InputStream body, DataBufferFactory bufferFactory, int chunkSize,
            String logPrefix) {
        super(logPrefix);
        this.exchange = exchange;
        this.body = body;
        this.bufferFactory = bufferFactory;
        this.chunkSize = chunkSize;
    }

    /**
     * Any thread, when demand arrives: reading happens in the exchange's turn, at once when it is idle (a read that
     * would wait is never made), else on its worker.
     */
    @Override
    protected void checkOnDataAvailable() {
        // false when the exchange has ended: the end listener then fails this publisher.
        exchange.runOrExecute(this::onDataAvailable);
    }

    /**
     * Worker: reads what arrived without waiting, or, when nothing has, asks for the readiness callback and returns
     * {@code null} (the base class keeps the demand and waits for {@link #onDataAvailable()}).
     */
    @Override
    protected DataBuffer read() {
        if (ended) {
            return null;
        }
        if (!exchange.requestReady()) {
            awaitReadable();
            return null;
        }
        int filled;
        try {
            filled = fillChunk();
        } catch (IOException failure) {
            // The base class cannot take an error while it reads (it would stay READING), so it is told in the
            // exchange's next task, when it is back to waiting for demand or data.
            ended = true;
            exchange.execute(() -> onError(failure));
            return null;
        }
        if (filled == 0) {
            return null;
        }
        DataBuffer buffer = bufferFactory.allocateBuffer(filled);
        return buffer.write(chunk, 0, filled);
    }

    /** Reads while a read would not wait and the chunk has room; at the body's end tells the base class so. */
    private int fillChunk() throws IOException {
        if (chunk == null) {
            chunk = new byte[chunkSize];
        }
        int filled = 0;
        do {
            int count = body.read(chunk, filled, chunk.length - filled);
            if (count < 0) {
                ended = true;
                // Taken as pending while reading: the subscriber hears onComplete after this last chunk, if any.
                onAllDataRead();
                return filled;
            }
            filled += count;
        } while (filled < chunk.length && exchange.requestReady());
        return filled;
    }

    private void awaitReadable() {
        if (!armed) {
            armed = true;
            exchange.onRequestReady(() -> {
                armed = false;
                onDataAvailable();
            });
        }
    }

    /** Demand ran out: nothing to do, since no readiness callback is asked for without demand. */
    @Override
    protected void readingPaused() {
    }

    /** Nothing to discard: a chunk read is published at once, and unread bytes stay in the engine for its drain. */
    @Override
    protected void discardData() {
    }
}
