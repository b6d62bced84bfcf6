package io.sprout.engine.contract;

import io.sprout.engine.AsyncExchange;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.CountDownLatch;

/**
 * Echoes a request body the non-blocking way: it reads only when {@link AsyncExchange#requestReady()}, writes only
 * when {@link AsyncExchange#responseReady()}, and otherwise asks for a readiness callback and returns, so no thread
 * waits for the client. A failed read or write aborts the exchange. Each run of the pump is logged.
 */
final class NonBlockingEcho {

    private final AsyncExchange async;
    private final InputStream in;
    private final OutputStream out;
    private final TaskLog log;
    private final Runnable atEnd;
    private final byte[] buffer = new byte[8192];
    private final CountDownLatch waitedToRead = new CountDownLatch(1);
    private final CountDownLatch waitedToWrite = new CountDownLatch(1);

    /**
     * @param atEnd runs (as a callback) once the whole body has been echoed; typically completes the exchange
     */
    NonBlockingEcho(Suspended exchange, TaskLog log, Runnable atEnd) {
        this.async = exchange.async;
        this.in = exchange.request.body();
        this.out = exchange.response.body();
        this.log = log;
        this.atEnd = atEnd;
    }

    /** An echo that completes the exchange when the body ends. */
    static NonBlockingEcho completing(Suspended exchange, TaskLog log) {
        return new NonBlockingEcho(exchange, log, exchange.async::complete);
    }

    /** Starts echoing on the calling thread (the handler's). */
    NonBlockingEcho start() {
        async.nonBlockingResponse();
        log.logged("echo", this::pump).run();
        return this;
    }

    /** Counted down when the echo first waits for request bytes. */
    CountDownLatch waitedToRead() {
        return waitedToRead;
    }

    /** Counted down when the echo first waits for the client to take response bytes. */
    CountDownLatch waitedToWrite() {
        return waitedToWrite;
    }

    private void pump() {
        try {
            while (async.responseReady()) {
                if (!async.requestReady()) {
                    async.onRequestReady(log.logged("request ready", this::pump));
                    waitedToRead.countDown();
                    return;
                }
                int count = in.read(buffer);
                if (count < 0) {
                    atEnd.run();
                    return;
                }
                out.write(buffer, 0, count);
            }
            async.onResponseReady(log.logged("response ready", this::pump));
            waitedToWrite.countDown();
        } catch (IOException clientGone) {
            async.abort(clientGone);
        }
    }
}
