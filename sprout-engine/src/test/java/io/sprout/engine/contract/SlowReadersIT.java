package io.sprout.engine.contract;

import io.sprout.engine.AsyncExchange;
import io.sprout.engine.ExecutionMode;
import io.sprout.engine.RequestHandler;
import io.sprout.engine.HttpRequest;
import io.sprout.engine.HttpResponse;
import io.sprout.engine.ThreadType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * Slow readers against a small platform pool: 250 clients that ask for a large response and never read it, each
 * streamed the non-blocking way, hold no worker while they stall, so a pool of four still serves everyone else.
 * Hybrid with platform threads is left out on purpose: its writes block by design (see docs/architecture.md), so
 * there a slow reader holds its worker until the write timeout.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(Combination.class)
class SlowReadersIT {

    private static final int SLOW_READERS = 250;
    private static final long RESPONSE_SIZE = 4L << 20;

    @Parameter
    Combination combination;

    @Test
    void stalledStreamingResponsesHoldNoWorker() {
        assumeFalse(combination.mode == ExecutionMode.HYBRID && combination.threadType == ThreadType.PLATFORM,
                "hybrid writes block: a slow reader holds a platform worker there by design");
        LargeResponses handler = new LargeResponses(SLOW_READERS);
        List<Socket> slowReaders = new ArrayList<>();
        try (RunningServer server = RunningServer.start(combination, handler, builder -> builder.threadPoolSize(4))) {
            try {
                for (int i = 0; i < SLOW_READERS; i++) {
                    slowReaders.add(askWithoutReading(server.port()));
                }
                Await.latch(handler.started, "every slow reader's response has started");
                if (combination.mode == ExecutionMode.NIO) {
                    // Hybrid's writes block (on a virtual thread here), so only nio reports a stall as such.
                    Await.latch(handler.stalled, "every slow reader's response has stalled");
                }
                for (int i = 0; i < 20; i++) {
                    try (RawClient legit = server.connect()) {
                        assertThat(legit.send("GET /hello HTTP/1.1\r\nHost: test\r\n\r\n").read().text())
                                .isEqualTo("Hello, World!");
                    }
                }
                assertThat(server.stats().requestsActive()).isGreaterThanOrEqualTo(SLOW_READERS);
            } finally {
                slowReaders.forEach(SlowReadersIT::closeQuietly);
            }
        }
    }

    /** A client with a tiny receive window that asks for a large response and never reads a byte of it. */
    private static Socket askWithoutReading(int port) {
        try {
            Socket socket = new Socket();
            socket.setReceiveBufferSize(4096);
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            socket.getOutputStream().write("GET /large HTTP/1.1\r\nHost: test\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            return socket;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // A test socket that fails to close changes nothing.
        }
    }

    /** {@code /large} streams {@link #RESPONSE_SIZE} bytes the non-blocking way; anything else is the contract's. */
    private static final class LargeResponses implements RequestHandler {

        private final ContractHandler contract = new ContractHandler();
        private final CountDownLatch started;
        private final CountDownLatch stalled;

        LargeResponses(int expected) {
            this.started = new CountDownLatch(expected);
            this.stalled = new CountDownLatch(expected);
        }

        @Override
        public void handle(HttpRequest request, HttpResponse response) throws Exception {
            if (!"/large".equals(request.path())) {
                contract.handle(request, response);
                return;
            }
            response.headers().set("Content-Length", Long.toString(RESPONSE_SIZE));
            AsyncExchange async = request.startAsync();
            async.nonBlockingResponse();
            started.countDown();
            new Pump(async, response.body(), stalled).run();
        }
    }

    /** Writes while the socket takes bytes, then waits for readiness without a thread; completes at the end. */
    private static final class Pump implements Runnable {

        private final AsyncExchange async;
        private final OutputStream out;
        private final CountDownLatch stalled;
        private final byte[] chunk = new byte[8192];
        private long left = RESPONSE_SIZE;
        private boolean counted;

        Pump(AsyncExchange async, OutputStream out, CountDownLatch stalled) {
            this.async = async;
            this.out = out;
            this.stalled = stalled;
            Arrays.fill(chunk, (byte) 'x');
        }

        @Override
        public void run() {
            try {
                while (left > 0 && async.responseReady()) {
                    int size = (int) Math.min(chunk.length, left);
                    out.write(chunk, 0, size);
                    left -= size;
                }
                if (left == 0) {
                    async.complete();
                    return;
                }
                if (!counted) {
                    counted = true;
                    stalled.countDown();
                }
                async.onResponseReady(this);
            } catch (IOException clientGone) {
                async.abort(clientGone);
            }
        }
    }
}
