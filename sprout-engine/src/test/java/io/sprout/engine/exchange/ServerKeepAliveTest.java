package io.sprout.engine.exchange;

import static org.assertj.core.api.Assertions.assertThat;

import io.sprout.engine.RequestHandler;
import io.sprout.engine.ServerConfig;
import io.sprout.engine.http.ParserLimits;
import io.sprout.engine.http.RequestHead;
import io.sprout.engine.http.RequestHeadParser;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The server's side of the keep-alive decision ({@code serverAllowsKeepAlive} in {@link ResponseFacts}), one
 * reason per test, through a whole exchange on a {@link MemoryChannel}: the outcome handed to the transport and the
 * {@code Connection} field of the response.
 */
class ServerKeepAliveTest {

    private static final String GET = "GET / HTTP/1.1\r\nHost: test\r\n\r\n";
    private static final String POST_EXPECTING_CONTINUE =
            "POST / HTTP/1.1\r\nHost: test\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n";

    private static final RequestHandler ANSWERS_OK = (request, response) -> response.body().write(bytes("ok"));
    private static final RequestHandler READS_THE_BODY = (request, response) -> {
        request.body().readAllBytes();
        response.body().write(bytes("ok"));
    };

    /** What one connection answered: the outcome of each exchange and every byte written. */
    private record Served(List<Outcome> outcomes, String written) {
    }

    @Test
    void keepsTheConnectionWhenNothingStandsInTheWay() {
        Served served = serve(ANSWERS_OK, UnaryOperator.identity(), context -> { }, "", GET);

        assertThat(served.outcomes()).containsExactly(Outcome.KEEP_ALIVE);
        assertThat(served.written()).doesNotContainIgnoringCase("Connection:");
    }

    @Test
    void closesWhileTheServerIsDraining() {
        Served served = serve(ANSWERS_OK, UnaryOperator.identity(),
                context -> context.shutdown().begin(result -> { }), "", GET);

        assertThat(served.outcomes()).containsExactly(Outcome.CLOSE);
        assertThat(served.written()).contains("Connection: close\r\n");
    }

    @Test
    void closesOnceTheKeepAliveRequestLimitIsReached() {
        Served served = serve(ANSWERS_OK, config -> config.maxKeepAliveRequests(2), context -> { }, "",
                GET, GET);

        assertThat(served.outcomes()).containsExactly(Outcome.KEEP_ALIVE, Outcome.CLOSE);
        assertThat(served.written()).containsOnlyOnce("Connection: close\r\n");
    }

    @Test
    void closesWhenTheBodyOfAnUnansweredExpectContinueWasNeverAskedFor() {
        Served served = serve(ANSWERS_OK, UnaryOperator.identity(), context -> { }, "",
                POST_EXPECTING_CONTINUE);

        assertThat(served.outcomes()).containsExactly(Outcome.CLOSE);
        assertThat(served.written()).doesNotContain("100 Continue").contains("Connection: close\r\n");
    }

    @Test
    void keepsTheConnectionOnceAnExpectedBodyHasBeenRead() {
        Served served = serve(READS_THE_BODY, UnaryOperator.identity(), context -> { }, "hello",
                POST_EXPECTING_CONTINUE);

        assertThat(served.outcomes()).containsExactly(Outcome.KEEP_ALIVE);
        assertThat(served.written()).startsWith("HTTP/1.1 100 Continue\r\n\r\n").doesNotContain("Connection:");
    }

    /**
     * Serves {@code heads} one after another on one connection whose client then sends {@code body}.
     *
     * @param before changes the server's state (for example starts draining) before the first request
     */
    private static Served serve(RequestHandler handler, UnaryOperator<ServerConfig.Builder> config,
            Consumer<ServerContext> before, String body, String... heads) {
        ServerContext context = new ServerContext(config.apply(ServerConfig.builder()).build(), handler, Runnable::run,
                Runnable::run, Thread::new);
        try {
            MemoryChannel channel = new MemoryChannel(body);
            HttpConnection connection = new HttpConnection(context, channel,
                    outcome -> { });
            before.accept(context);
            List<Outcome> outcomes = new ArrayList<>();
            for (String head : heads) {
                outcomes.add(connection.serve(parse(head)));
            }
            connection.release();
            assertThat(context.pool().leased()).as("buffers still leased").isZero();
            return new Served(outcomes, channel.written());
        } finally {
            context.close();
        }
    }

    private static RequestHead parse(String head) {
        return new RequestHeadParser(ParserLimits.DEFAULT).parse(ByteBuffer.wrap(bytes(head)));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }
}
