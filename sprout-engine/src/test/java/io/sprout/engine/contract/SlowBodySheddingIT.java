package io.sprout.engine.contract;

import io.sprout.engine.RequestHandler;
import io.sprout.engine.MinDataRates;
import io.sprout.engine.ThreadType;
import io.sprout.engine.TimeoutKind;
import io.sprout.engine.Timeouts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Uploads trickling below the minimum body rate into a blocking handler must not starve other clients of workers:
 * while a platform pool is saturated and work waits, the slowest bodies lose their grace period (408 and a close).
 * The grace period is set far beyond the client's 20 s read timeout, so only shedding can end a slow upload in time.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(Combination.class)
class SlowBodySheddingIT {

    private static final String HOST = "Host: test\r\n";
    private static final int WORKERS = 4;
    private static final String SLOW_UPLOAD = "POST /digest HTTP/1.1\r\n" + HOST + "Content-Length: 1000000\r\n\r\nx";
    private static final Duration NEVER = Duration.ofMinutes(5);
    private static final Timeouts PATIENT = new Timeouts(NEVER, NEVER, NEVER, NEVER, Duration.ZERO);

    @Parameter
    Combination combination;

    @Test
    void shedsSlowUploadsHoldingEveryWorkerForRequestsThatWait() {
        assumeTrue(combination.threadType == ThreadType.PLATFORM);
        BlockingHandler handler = new BlockingHandler();
        try (RunningServer server = startServer(handler)) {
            List<RawClient> slow = slowUploadsHoldingEveryWorker(server);
            List<RawClient> waiting = new ArrayList<>();
            try {
                for (int i = 0; i < WORKERS; i++) {
                    waiting.add(server.connect().send("GET /block HTTP/1.1\r\n" + HOST + "\r\n"));
                }
                for (RawClient upload : slow) {
                    RawClient.Response response = upload.read();
                    assertThat(response.status()).isEqualTo(408);
                    assertThat(response.header("Connection")).isEqualTo("close");
                    assertThat(upload.closedByServer()).isTrue();
                }
                handler.awaitBlocked();
                handler.release();
                for (RawClient client : waiting) {
                    assertThat(client.read().text()).isEqualTo("released");
                }
                try (RawClient late = server.connect()) {
                    assertThat(late.send("GET /hello HTTP/1.1\r\n" + HOST + "\r\n").read().status()).isEqualTo(200);
                }
            } finally {
                handler.release();
                closeAll(waiting);
                closeAll(slow);
            }
            assertThat(server.stats().requestsShed()).isEqualTo(WORKERS);
            assertThat(server.stats().timeouts(TimeoutKind.RATE)).isEqualTo(WORKERS);
        }
    }

    @Test
    void answersALegitimateRequestWhileSlowUploadsHoldEveryWorker() {
        try (RunningServer server = startServer(new ContractHandler())) {
            List<RawClient> slow = slowUploadsHoldingEveryWorker(server);
            try (RawClient legit = server.connect()) {
                assertThat(legit.send("GET /hello HTTP/1.1\r\n" + HOST + "\r\n").read().status()).isEqualTo(200);
            } finally {
                closeAll(slow);
            }
            // Virtual threads are never saturated, so nothing is shed; a platform pool sheds one for the one request.
            long expected = combination.threadType == ThreadType.PLATFORM ? 1 : 0;
            Await.until(() -> server.stats().connectionsOpen() == 0, "every connection is closed");
            assertThat(server.stats().requestsShed()).isEqualTo(expected);
        }
    }

    private RunningServer startServer(RequestHandler handler) {
        return RunningServer.start(combination, handler, builder -> builder.threadPoolSize(WORKERS)
                .workerQueueCapacity(16).timeouts(PATIENT).minDataRates(MinDataRates.NONE.withBody(1000, NEVER)));
    }

    /** {@code WORKERS} uploads whose handlers each block on the body, after one byte of a million. */
    private List<RawClient> slowUploadsHoldingEveryWorker(RunningServer server) {
        List<RawClient> slow = new ArrayList<>();
        for (int i = 0; i < WORKERS; i++) {
            slow.add(server.connect().send(SLOW_UPLOAD));
        }
        Await.until(() -> server.stats().requestsActive() == WORKERS, "every upload is being handled");
        return slow;
    }

    private static void closeAll(List<RawClient> clients) {
        clients.forEach(RawClient::close);
    }
}
