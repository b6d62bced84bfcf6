package io.sprout.engine.contract;

import io.sprout.engine.ExecutionMode;
import io.sprout.engine.RequestHandler;
import io.sprout.engine.ServerConfig;
import io.sprout.engine.ShutdownResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The asynchronous exchange over real sockets in every combination: suspension and completion from other threads,
 * where and how its tasks run, its timeout, graceful shutdown and stop, and non-blocking body I/O. Connection
 * takeover is {@link ConnectionTakeoverIT}'s; aborts in every state are {@link AsyncAbortIT}'s. Each server checks
 * on close that no connection, request or buffer is left behind.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(Combination.class)
class AsyncExchangeIT {

    private static final String HOST = "Host: test\r\n";
    private static final String GET_LATER = "GET /later HTTP/1.1\r\n" + HOST + "\r\n";
    private static final long HUNDRED_MEGABYTES = 100L * 1024 * 1024;
    /** Pooled buffers one echoing connection may hold: its input, the response buffer, one unsent buffer, slack. */
    private static final long BUFFER_BOUND = 8;
    /** Bytes read but not yet written back: a few buffers' worth, nowhere near the body's size. */
    private static final long HELD_BYTES_BOUND = 1024 * 1024;

    @Parameter
    Combination combination;

    /** Sends a request the handler suspends, and waits until its worker has let go of it. */
    private static Suspended suspendOne(RunningServer server, RawClient client, Suspensions suspensions) {
        client.send(GET_LATER);
        Suspended exchange = suspensions.next();
        Await.until(() -> server.stats().workersBusy() == 0, "the handler's worker is free");
        return exchange;
    }

    @Test
    void completesASuspendedExchangeFromAnotherThreadWithoutHoldingAWorker() {
        Suspensions suspensions = new Suspensions();
        try (RunningServer server = RunningServer.start(combination, suspensions);
                RawClient client = server.connect()) {
            Suspended exchange = suspendOne(server, client, suspensions);
            assertThat(server.stats().exchangesDetached()).isEqualTo(1);
            assertThat(server.stats().requestsActive()).isEqualTo(1);

            inBackground(() -> exchange.answer("done"));

            RawClient.Response response = client.read();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.text()).isEqualTo("done");
            assertThat(exchange.awaitEnd()).isNull();
            assertThat(server.stats().exchangesDetached()).isZero();
        }
    }

    @Test
    void answersAPipelinedRequestOnlyAfterTheSuspendedOneBeforeItCompletes() {
        Suspensions suspensions = new Suspensions();
        RequestHandler handler = (request, response) -> {
            if (request.path().equals("/now")) {
                response.body().write(ascii("now"));
            } else {
                suspensions.handle(request, response);
            }
        };
        try (RunningServer server = RunningServer.start(combination, handler); RawClient client = server.connect()) {
            client.send(GET_LATER + "GET /now HTTP/1.1\r\n" + HOST + "\r\n");
            Suspended later = suspensions.next();

            inBackground(() -> later.answer("later"));

            assertThat(client.read().text()).isEqualTo("later");
            assertThat(client.read().text()).isEqualTo("now");
        }
    }

    @Test
    void runsATaskOnTheCallingThreadWhenTheExchangeIsIdleAndInTurnWhenItIsNot() {
        Suspensions suspensions = new Suspensions();
        try (RunningServer server = RunningServer.start(combination, suspensions);
                RawClient client = server.connect()) {
            Suspended exchange = suspendOne(server, client, suspensions);
            Thread caller = Thread.currentThread();
            List<String> ran = new CopyOnWriteArrayList<>();

            exchange.async.runOrExecute(() -> ran.add(Thread.currentThread() == caller ? "idle: here" : "idle: worker"));
            assertThat(ran).as("run before runOrExecute returned").containsExactly("idle: here");

            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch busy = new CountDownLatch(1);
            exchange.async.execute(() -> {
                busy.countDown();
                Await.latch(release, "the test releases the busy task");
                ran.add("busy task");
            });
            Await.latch(busy, "a task of the exchange runs");
            CountDownLatch second = new CountDownLatch(1);
            exchange.async.runOrExecute(() -> {
                ran.add(Thread.currentThread() == caller ? "busy: here" : "busy: worker");
                second.countDown();
            });
            release.countDown();
            Await.latch(second, "the task asked for while busy ran");

            assertThat(ran).containsExactly("idle: here", "busy task", "busy: worker");
            inBackground(() -> exchange.answer("done"));
            assertThat(client.read().text()).isEqualTo("done");
        }
    }

    @Test
    void runsTasksAndReadinessCallbacksOnWorkersOneAtATimeInOrder() {
        int submitters = 4;
        int tasksEach = 50;
        TaskLog log = new TaskLog();
        CountDownLatch submittedTasksRan = new CountDownLatch(submitters * tasksEach);
        CountDownLatch echoed = new CountDownLatch(1);
        CompletableFuture<Boolean> queuedTaskRanDuringHandler = new CompletableFuture<>();
        CompletableFuture<Suspended> suspended = new CompletableFuture<>();
        RequestHandler handler = (request, response) -> {
            Suspended exchange = Suspended.start(request, response);
            CountDownLatch queuedTaskRan = new CountDownLatch(1);
            exchange.async.execute(log.logged("queued by the handler", queuedTaskRan::countDown));
            // The handler holds the exchange's slot: the task must not start while the handler still runs.
            queuedTaskRanDuringHandler.complete(queuedTaskRan.await(300, TimeUnit.MILLISECONDS));
            new NonBlockingEcho(exchange, log, echoed::countDown).start();
            suspended.complete(exchange);
        };
        try (RunningServer server = RunningServer.start(combination, handler); RawClient client = server.connect()) {
            client.send("POST /echo HTTP/1.1\r\n" + HOST + "Content-Length: 5\r\n\r\n");
            Suspended exchange = Await.future(suspended, "the request is suspended");

            submitConcurrently(exchange, log, submitters, tasksEach, submittedTasksRan);
            client.send("hello");
            Await.latch(echoed, "the body is echoed");
            Await.latch(submittedTasksRan, "every submitted task ran");
            exchange.async.complete();

            assertThat(client.read().text()).isEqualTo("hello");
        }
        assertThat(queuedTaskRanDuringHandler).isCompletedWithValue(false);
        assertThat(log.labels()).contains("queued by the handler", "echo", "request ready");
        assertThat(log.entries()).allSatisfy(entry -> assertThat(entry.onWorker()).as(entry.toString()).isTrue());
        assertThat(log.mostAtOnce()).as("tasks of one exchange running at once").isEqualTo(1);
        for (int submitter = 0; submitter < submitters; submitter++) {
            String prefix = "submitter-" + submitter + ":";
            assertThat(log.labels().stream().filter(label -> label.startsWith(prefix)))
                    .as("the tasks of one submitter run in the order submitted")
                    .containsExactlyElementsOf(IntStream.range(0, tasksEach).mapToObj(i -> prefix + i).toList());
        }
    }

    @Test
    void runsTheTimeoutTaskOfASuspendedExchangeOnAWorker() {
        TaskLog log = new TaskLog();
        RequestHandler handler = (request, response) -> {
            Suspended exchange = Suspended.start(request, response);
            exchange.async.timeout(Duration.ofMillis(200), log.logged("timeout", () -> {
                response.status(503);
                exchange.answer("timed out");
            }));
        };
        try (RunningServer server = RunningServer.start(combination, handler); RawClient client = server.connect()) {
            RawClient.Response response = client.send(GET_LATER).read();

            assertThat(response.status()).isEqualTo(503);
            assertThat(response.text()).isEqualTo("timed out");
        }
        assertThat(log.entries()).singleElement().satisfies(entry -> assertThat(entry.onWorker()).isTrue());
    }

    @Test
    void runsTheTimeoutTaskWhileANonBlockingReaderWaitsForTheBody() {
        RequestHandler handler = (request, response) -> {
            Suspended exchange = Suspended.start(request, response);
            exchange.async.timeout(Duration.ofMillis(200), () -> {
                response.status(503);
                exchange.answer("no body came");
            });
            NonBlockingEcho.completing(exchange, new TaskLog()).start();
        };
        try (RunningServer server = RunningServer.start(combination, handler); RawClient client = server.connect()) {
            RawClient.Response response = client.send("POST /echo HTTP/1.1\r\n" + HOST + "Content-Length: 5\r\n\r\n")
                    .read();

            assertThat(response.status()).isEqualTo(503);
            assertThat(response.text()).isEqualTo("no body came");
        }
    }

    @Test
    void gracefulShutdownWaitsForASuspendedExchangeToComplete() {
        Suspensions suspensions = new Suspensions();
        try (RunningServer server = RunningServer.start(combination, suspensions);
                RawClient client = server.connect()) {
            client.send(GET_LATER);
            Suspended exchange = suspensions.next();
            CompletableFuture<ShutdownResult> result = new CompletableFuture<>();

            server.server().shutdownGracefully(result::complete);
            assertThat(result).as("a suspended exchange is an active request").isNotDone();
            exchange.answer("finished");

            RawClient.Response response = client.read();
            assertThat(response.text()).isEqualTo("finished");
            assertThat(response.header("Connection")).isEqualTo("close");
            assertThat(Await.future(result, "the shutdown reports")).isEqualTo(ShutdownResult.IDLE);
            assertThat(client.closedByServer()).isTrue();
            assertThat(exchange.awaitEnd()).isNull();
        }
    }

    @Test
    void stopAbortsASuspendedExchangeAndTellsItsEndListenerOnce() {
        Suspensions suspensions = new Suspensions();
        Suspended exchange;
        try (RunningServer server = RunningServer.start(combination, suspensions);
                RawClient client = server.connect()) {
            client.send(GET_LATER);
            exchange = suspensions.next();

            server.server().stop();

            assertThat(exchange.awaitEnd()).isNotNull();
            assertThat(client.closedByServer()).isTrue();
        }
        assertThat(exchange.endings()).hasSize(1);
    }

    @Test
    void answersExpectContinueBeforeANonBlockingReaderWaitsForTheBody() {
        RequestHandler handler = (request, response) ->
                NonBlockingEcho.completing(Suspended.start(request, response), new TaskLog()).start();
        try (RunningServer server = RunningServer.start(combination, handler); RawClient client = server.connect()) {
            client.send("POST /echo HTTP/1.1\r\n" + HOST + "Expect: 100-continue\r\nContent-Length: 5\r\n\r\n");

            assertThat(client.read().status()).isEqualTo(100);
            client.send("hello");
            assertThat(client.read().text()).isEqualTo("hello");
        }
    }

    @Test
    void echoes100MegabytesNonBlockingInBoundedMemory() {
        echoesNonBlockingInBoundedMemory(HUNDRED_MEGABYTES, UnaryOperator.identity(), RawClient::connect, 0);
    }

    /** The echo over TLS: records read ahead, partial record writes; its own three record buffers at most. */
    @Test
    void echoesThirtyTwoMegabytesNonBlockingOverTls() {
        echoesNonBlockingInBoundedMemory(32L * 1024 * 1024, TestTls.https(), TestTls::connect, 3);
    }

    private void echoesNonBlockingInBoundedMemory(long size, UnaryOperator<ServerConfig.Builder> config,
            IntFunction<RawClient> connect, long recordBuffers) {
        TaskLog log = new TaskLog();
        CompletableFuture<NonBlockingEcho> echo = new CompletableFuture<>();
        RequestHandler handler = (request, response) ->
                echo.complete(NonBlockingEcho.completing(Suspended.start(request, response), log).start());
        try (RunningServer server = RunningServer.start(combination, handler, config);
                RawClient client = connect.apply(server.port());
                PeakGauge buffers = PeakGauge.watch("buffers", () -> server.stats().buffersLeased());
                PeakGauge held = PeakGauge.watch("held", () -> server.stats().bytesIn() - server.stats().bytesOut())) {
            client.send("POST /echo HTTP/1.1\r\n" + HOST + "Transfer-Encoding: chunked\r\n\r\n");
            CompletableFuture<ChunkedStreams.Digest> sent = inBackground(
                    () -> ChunkedStreams.send(client.socket().getOutputStream(), size, 65536, 42));
            if (combination.mode == ExecutionMode.NIO) {
                // Read nothing until the echo has had to wait for the client, so write readiness drives it too.
                Await.latch(Await.future(echo, "the echo starts").waitedToWrite(), "the echo waits to write");
            }

            RawClient.Response head = client.readHead();
            assertThat(head.status()).isEqualTo(200);
            assertThat(head.header("Transfer-Encoding")).isEqualTo("chunked");
            ChunkedStreams.Digest received = receive(client);

            assertThat(received).isEqualTo(Await.future(sent, "the upload is sent"));
            assertThat(received.length()).isEqualTo(size);
            assertThat(buffers.peak()).as("pooled buffers leased at once")
                    .isLessThanOrEqualTo(BUFFER_BOUND + recordBuffers);
            assertThat(held.peak()).as("bytes read and not yet written back").isLessThan(HELD_BYTES_BOUND);
        }
        assertThat(log.labels()).contains("request ready");
        if (combination.mode == ExecutionMode.NIO) {
            assertThat(log.labels()).contains("response ready");
        }
        assertThat(log.entries()).allSatisfy(entry -> assertThat(entry.onWorker()).as(entry.toString()).isTrue());
        assertThat(log.mostAtOnce()).isEqualTo(1);
    }

    /** Submits {@code tasksEach} logged tasks from each of {@code submitters} platform threads at once. */
    private static void submitConcurrently(Suspended exchange, TaskLog log, int submitters, int tasksEach,
            CountDownLatch ran) {
        List<CompletableFuture<Boolean>> submitted = new ArrayList<>();
        for (int submitter = 0; submitter < submitters; submitter++) {
            String prefix = "submitter-" + submitter + ":";
            submitted.add(inBackground(() -> {
                boolean accepted = true;
                for (int i = 0; i < tasksEach; i++) {
                    accepted &= exchange.async.execute(log.logged(prefix + i, ran::countDown));
                }
                return accepted;
            }));
        }
        for (CompletableFuture<Boolean> accepted : submitted) {
            assertThat(Await.future(accepted, "tasks are submitted")).as("execute accepted every task").isTrue();
        }
    }

    private static ChunkedStreams.Digest receive(RawClient client) {
        try {
            return ChunkedStreams.receive(client.input());
        } catch (IOException e) {
            throw new AssertionError("Reading the echo failed", e);
        }
    }

    /** Runs {@code work} on a new platform thread, which is neither a server thread nor the test's. */
    private static <T> CompletableFuture<T> inBackground(Callable<T> work) {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread.ofPlatform().name("test-background").start(() -> {
            try {
                result.complete(work.call());
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        });
        return result;
    }

    private static CompletableFuture<Void> inBackground(Runnable work) {
        return inBackground(() -> {
            work.run();
            return null;
        });
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
