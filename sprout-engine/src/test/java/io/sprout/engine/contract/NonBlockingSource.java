package io.sprout.engine.contract;

import io.sprout.engine.AsyncExchange;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;

/**
 * An endless response body written the non-blocking way: while {@link AsyncExchange#responseReady()} it writes
 * more, otherwise it asks for a write-readiness callback and returns. For a client that stops reading, this is the
 * exchange waiting without a thread for the client to take bytes. A failed write aborts the exchange.
 */
final class NonBlockingSource {

    private final AsyncExchange async;
    private final OutputStream out;
    private final byte[] chunk = new byte[8192];
    private final CountDownLatch waitedToWrite = new CountDownLatch(1);

    NonBlockingSource(Suspended exchange) {
        this.async = exchange.async;
        this.out = exchange.response.body();
        Arrays.fill(chunk, (byte) 'x');
    }

    /** Starts writing on the calling thread (the handler's). */
    NonBlockingSource start() {
        async.nonBlockingResponse();
        pump();
        return this;
    }

    /** Counted down when the source first waits for the client to take bytes (nio only: hybrid writes block). */
    CountDownLatch waitedToWrite() {
        return waitedToWrite;
    }

    private void pump() {
        try {
            while (async.responseReady()) {
                out.write(chunk);
            }
            async.onResponseReady(this::pump);
            waitedToWrite.countDown();
        } catch (IOException clientGone) {
            async.abort(clientGone);
        }
    }
}
