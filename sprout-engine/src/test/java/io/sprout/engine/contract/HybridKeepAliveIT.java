package io.sprout.engine.contract;

import io.sprout.engine.HttpRequest;
import io.sprout.engine.HttpResponse;
import io.sprout.engine.ServerConfig;
import io.sprout.engine.Timeouts;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hybrid mode's keep-alive wait ({@code hybridKeepAliveWait}): the worker that answered a plaintext connection reads
 * that connection's next request itself while a worker is spare, and hands the connection back to its loop when
 * none is, when the wait is zero, or when only part of a head came.
 */
class HybridKeepAliveIT {

    /** A wait no test reaches: whatever a test sees comes from the rules, not from the wait running out. */
    private static final Duration FOREVER = Duration.ofMinutes(5);
    private static final String GET = "GET /thread HTTP/1.1\r\nHost: test\r\n\r\n";
    private static final int REQUESTS = 5;

    /** Answers with the id of the thread that ran the handler. */
    private static void threadId(HttpRequest request, HttpResponse response) {
        byte[] body = Long.toString(Thread.currentThread().threadId()).getBytes(StandardCharsets.US_ASCII);
        response.contentLength(body.length);
        try {
            response.body().write(body);
        } catch (IOException clientGone) {
            throw new UncheckedIOException(clientGone);
        }
    }

    private static RunningServer start(Combination combination, Duration wait,
            UnaryOperator<ServerConfig.Builder> more) {
        return RunningServer.start(combination, HybridKeepAliveIT::threadId,
                builder -> more.apply(builder.hybridKeepAliveWait(wait)));
    }

    /** The threads that answered {@link #REQUESTS} requests sent one after another on one connection. */
    private static Set<String> threadsOfOneConnection(RunningServer server) {
        Set<String> threads = new HashSet<>();
        try (RawClient client = server.connect()) {
            for (int i = 0; i < REQUESTS; i++) {
                RawClient.Response response = client.send(GET).read();
                assertThat(response.status()).isEqualTo(200);
                threads.add(response.text());
            }
        }
        return threads;
    }

    @Test
    void oneWorkerServesItsConnectionsRequestsInTurn() {
        for (Combination combination : new Combination[] {Combination.HYBRID_PLATFORM, Combination.HYBRID_VIRTUAL}) {
            try (RunningServer server = start(combination, FOREVER, UnaryOperator.identity())) {
                assertThat(threadsOfOneConnection(server)).as(combination.name()).hasSize(1);
            }
        }
    }

    @Test
    void withoutTheWaitEveryRequestGoesToANewTask() {
        // A virtual thread runs one task: a connection handed back between requests gets a new thread each time.
        try (RunningServer server = start(Combination.HYBRID_VIRTUAL, Duration.ZERO, UnaryOperator.identity())) {
            assertThat(threadsOfOneConnection(server)).hasSize(REQUESTS);
        }
    }

    @Test
    void aWorkerDoesNotWaitWhenNoOtherIsSpare() {
        // One platform worker: had it waited on the first connection, the second would wait the whole FOREVER, far
        // past the client's read time-out.
        try (RunningServer server = start(Combination.HYBRID_PLATFORM, FOREVER, builder -> builder.threadPoolSize(1));
                RawClient first = server.connect();
                RawClient second = server.connect()) {
            assertThat(first.send(GET).read().status()).isEqualTo(200);
            assertThat(second.send(GET).read().status()).isEqualTo(200);
            assertThat(first.send(GET).read().status()).isEqualTo(200);
        }
    }

    @Test
    void partOfAHeadGoesBackToTheLoopAndItsDeadline() {
        try (RunningServer server = start(Combination.HYBRID_PLATFORM, FOREVER,
                builder -> builder.timeouts(Timeouts.DEFAULT.withRequestHead(Duration.ofMillis(300))));
                RawClient client = server.connect()) {
            assertThat(client.send(GET).read().status()).isEqualTo(200);
            client.send("GET /thread HTTP/1.1\r\nHo");

            assertThat(client.read().status()).isEqualTo(408);
            assertThat(client.closedByServer()).isTrue();
        }
    }
}
