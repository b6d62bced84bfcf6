package io.sprout.engine.contract;

import io.sprout.engine.ExecutionMode;
import io.sprout.engine.RequestHandler;
import io.sprout.engine.HttpRequest;
import io.sprout.engine.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.SocketTimeoutException;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Aborted asynchronous exchanges leave nothing behind, whoever aborts and whatever the exchange was doing: the
 * client going away, or the application calling {@code abort(cause)}, while suspended before commit, after commit
 * mid-body, during a non-blocking read wait, during a non-blocking write wait, and while upgraded. After each, the
 * server's close checks that no connection, request or buffer is left, and every test checks that the exchange's
 * end listener was told exactly once.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(Combination.class)
class AsyncAbortIT {

    private static final String HOST = "Host: test\r\n";
    private static final String GET = "GET /stream HTTP/1.1\r\n" + HOST + "\r\n";
    private static final String POST_WITH_PART_OF_ITS_BODY =
            "POST /echo HTTP/1.1\r\n" + HOST + "Content-Length: 100000\r\n\r\n0123456789";
    private static final String UPGRADE =
            "GET /echo HTTP/1.1\r\n" + HOST + "Connection: Upgrade\r\nUpgrade: echo\r\n\r\n";
    private static final long STALL_MILLIS = 300;

    @Parameter
    Combination combination;

    private final IllegalStateException appGaveUp = new IllegalStateException("the application gave up");
    private final CompletableFuture<Suspended> suspended = new CompletableFuture<>();
    private final CompletableFuture<NonBlockingEcho> echo = new CompletableFuture<>();
    private final CompletableFuture<NonBlockingSource> source = new CompletableFuture<>();

    @AfterEach
    void theEndListenerWasToldExactlyOnce() {
        if (suspended.isDone()) {
            assertThat(suspended.join().endings()).hasSize(1);
        }
    }

    // ---- the client goes away ----

    @Test
    void leaksNothingWhenTheClientResetsWhileSuspendedBeforeCommit() {
        try (RunningServer server = start(this::suspend); RawClient client = server.connect()) {
            client.send(GET);
            Suspended exchange = awaitSuspended();

            client.reset();
            exchange.answer("too late");

            exchange.awaitEnd();
        }
    }

    @Test
    void leaksNothingWhenTheClientResetsMidBodyAfterCommit() {
        try (RunningServer server = start(this::suspend); RawClient client = server.connect()) {
            client.send(GET);
            Suspended exchange = awaitSuspended();
            writeAndFlush(exchange, 100_000);
            assertThat(client.readHead().status()).isEqualTo(200);

            client.reset();
            IOException failure = writeUntilItFails(exchange);
            exchange.async.abort(failure);

            assertThat(exchange.awaitEnd()).isSameAs(failure);
        }
    }

    @Test
    void leaksNothingWhenTheClientResetsDuringANonBlockingReadWait() {
        try (RunningServer server = start(this::echo); RawClient client = server.connect()) {
            client.send(POST_WITH_PART_OF_ITS_BODY);
            Await.latch(Await.future(echo, "the echo starts").waitedToRead(), "the echo waits for the body");

            client.reset();

            assertThat(awaitSuspended().awaitEnd()).as("the failed read aborts").isNotNull();
        }
    }

    @Test
    void leaksNothingWhenTheClientStopsReadingThenResetsDuringANonBlockingWriteWait() {
        try (RunningServer server = start(this::source); RawClient client = server.connect()) {
            client.send(GET);
            assertThat(client.readHead().status()).isEqualTo(200);
            awaitWritesStalled(server);

            client.reset();

            assertThat(awaitSuspended().awaitEnd()).as("the failed write aborts").isNotNull();
        }
    }

    @Test
    void leaksNothingWhenTheClientResetsAnUpgradedConnection() {
        try (RunningServer server = start(this::upgrade); RawClient client = server.connect()) {
            client.send(UPGRADE);
            assertThat(client.readHead().status()).isEqualTo(101);
            assertThat(client.send("ping").readText(4)).isEqualTo("ping");

            client.reset();

            assertThat(awaitSuspended().awaitEnd()).as("the failed read aborts").isNotNull();
        }
    }

    // ---- the application aborts ----

    @Test
    void abortBeforeCommitClosesTheConnectionWithoutAnAnswer() {
        try (RunningServer server = start(this::suspend); RawClient client = server.connect()) {
            client.send(GET);
            Suspended exchange = awaitSuspended();

            exchange.async.abort(appGaveUp);

            assertThat(client.closedByServer()).isTrue();
            assertThat(exchange.awaitEnd()).isSameAs(appGaveUp);
        }
    }

    @Test
    void abortAfterCommitCutsTheBodyShort() {
        try (RunningServer server = start(this::suspend); RawClient client = server.connect()) {
            client.send(GET);
            Suspended exchange = awaitSuspended();
            writeAndFlush(exchange, 100_000);
            RawClient.Response head = client.readHead();
            assertThat(head.header("Transfer-Encoding")).isEqualTo("chunked");

            exchange.async.abort(appGaveUp);

            assertThatThrownBy(() -> ChunkedStreams.receive(client.input())).isInstanceOf(IOException.class);
            assertThat(exchange.awaitEnd()).isSameAs(appGaveUp);
        }
    }

    @Test
    void abortDuringANonBlockingReadWaitClosesTheConnection() {
        try (RunningServer server = start(this::echo); RawClient client = server.connect()) {
            client.send(POST_WITH_PART_OF_ITS_BODY);
            Await.latch(Await.future(echo, "the echo starts").waitedToRead(), "the echo waits for the body");

            awaitSuspended().async.abort(appGaveUp);

            assertThat(client.closedByServer()).isTrue();
            assertThat(awaitSuspended().awaitEnd()).isSameAs(appGaveUp);
        }
    }

    @Test
    void abortDuringANonBlockingWriteWaitClosesTheConnection() {
        try (RunningServer server = start(this::source); RawClient client = server.connect()) {
            client.send(GET);
            assertThat(client.readHead().status()).isEqualTo(200);
            awaitWritesStalled(server);

            awaitSuspended().async.abort(appGaveUp);

            assertThat(readsToTheEnd(client)).as("the connection ends").isTrue();
            assertThat(awaitSuspended().awaitEnd()).isSameAs(appGaveUp);
        }
    }

    @Test
    void abortOfAnUpgradedConnectionClosesIt() {
        try (RunningServer server = start(this::upgrade); RawClient client = server.connect()) {
            client.send(UPGRADE);
            assertThat(client.readHead().status()).isEqualTo(101);
            assertThat(client.send("ping").readText(4)).isEqualTo("ping");

            awaitSuspended().async.abort(appGaveUp);

            assertThat(client.closedByServer()).isTrue();
            assertThat(awaitSuspended().awaitEnd()).isSameAs(appGaveUp);
        }
    }

    @Test
    void aWriteAfterTheAbortFailsAndHoldsNoBuffer() {
        try (RunningServer server = start(this::suspend); RawClient client = server.connect()) {
            client.send(GET);
            Suspended exchange = awaitSuspended();
            exchange.async.abort(appGaveUp);
            exchange.awaitEnd();

            assertThatThrownBy(() -> exchange.response.body().write(new byte[100])).isInstanceOf(IOException.class);
            assertThat(client.closedByServer()).isTrue();
        }
    }

    // ---- the applications ----

    private Suspended suspend(HttpRequest request, HttpResponse response) {
        Suspended exchange = Suspended.start(request, response);
        suspended.complete(exchange);
        return exchange;
    }

    private void echo(HttpRequest request, HttpResponse response) {
        echo.complete(NonBlockingEcho.completing(suspend(request, response), new TaskLog()).start());
    }

    private void source(HttpRequest request, HttpResponse response) {
        source.complete(new NonBlockingSource(suspend(request, response)).start());
    }

    private void upgrade(HttpRequest request, HttpResponse response) throws IOException {
        RawEcho.upgrade(suspend(request, response), new TaskLog());
    }

    // ---- helpers ----

    private RunningServer start(RequestHandler handler) {
        return RunningServer.start(combination, handler);
    }

    private Suspended awaitSuspended() {
        return Await.future(suspended, "the request is suspended");
    }

    /**
     * Waits until the server cannot send more to a client that stopped reading: in nio the source then waits for
     * writability; in hybrid its write blocks, which has no event, so the bytes sent stop growing for a while.
     */
    private void awaitWritesStalled(RunningServer server) {
        if (combination.mode == ExecutionMode.NIO) {
            Await.latch(Await.future(source, "the source starts").waitedToWrite(), "the source waits to write");
            return;
        }
        long[] last = {-1, System.nanoTime()};
        Await.until(() -> {
            long sent = server.stats().bytesOut();
            long now = System.nanoTime();
            if (sent != last[0]) {
                last[0] = sent;
                last[1] = now;
            }
            return sent > 0 && now - last[1] > STALL_MILLIS * 1_000_000;
        }, "the server's writes stall");
    }

    private static void writeAndFlush(Suspended exchange, int bytes) {
        try {
            OutputStream body = exchange.response.body();
            body.write(new byte[bytes]);
            body.flush();
        } catch (IOException e) {
            throw new AssertionError("The first write failed", e);
        }
    }

    /** Writes (blocking) until a write fails, as an application streaming to a client that has gone does. */
    private static IOException writeUntilItFails(Suspended exchange) {
        byte[] chunk = new byte[65536];
        OutputStream body = exchange.response.body();
        for (int i = 0; i < 100_000; i++) {
            try {
                body.write(chunk);
                body.flush();
            } catch (IOException failed) {
                return failed;
            }
        }
        throw new AssertionError("Writing to a reset connection kept succeeding");
    }

    /** Reads and discards until the stream ends or is reset; {@code false} if the server keeps it open. */
    private static boolean readsToTheEnd(RawClient client) {
        byte[] discard = new byte[65536];
        InputStream in = client.input();
        try {
            while (in.read(discard) >= 0) {
                // discard what the server sent before the abort
            }
            return true;
        } catch (SocketTimeoutException stillOpen) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }
}
