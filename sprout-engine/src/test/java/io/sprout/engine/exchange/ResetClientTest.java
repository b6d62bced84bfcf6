package io.sprout.engine.exchange;

import static org.assertj.core.api.Assertions.assertThat;

import io.sprout.engine.RequestHandler;
import io.sprout.engine.ServerConfig;
import io.sprout.engine.http.ParserLimits;
import io.sprout.engine.http.RequestHead;
import io.sprout.engine.http.RequestHeadParser;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * A client that resets its connection before the response goes out: the first failed write breaks the response for
 * good, so whoever completes it next (the Servlet layer, then the exchange) gets an {@link IOException} and the
 * exchange ends as an abort, with its buffers back in the pool, rather than resending from a half-sent buffer.
 */
class ResetClientTest {

    private static final String GET = "GET / HTTP/1.1\r\nHost: test\r\n\r\n";

    @Test
    void aResponseWhoseCompletionFailedIsAbortedAndReleasesItsBuffer() {
        RequestHandler completesAndIgnoresTheFailure = (request, response) -> {
            response.body().write("ok".getBytes(StandardCharsets.ISO_8859_1));
            try {
                response.body().close();
            } catch (IOException clientGone) {
                // As a Servlet container's output stream does: the failure is the exchange's to report.
            }
        };

        assertThat(serveToAResetClient(completesAndIgnoresTheFailure)).isEqualTo(Outcome.ABORT);
    }

    @Test
    void aResponseWhoseFlushFailedIsAbortedAndReleasesItsBuffer() {
        RequestHandler flushesAndIgnoresTheFailure = (request, response) -> {
            response.body().write("ok".getBytes(StandardCharsets.ISO_8859_1));
            try {
                response.body().flush();
            } catch (IOException clientGone) {
                // Ignored as above; a later write must fail too rather than reuse the half-sent buffer.
            }
            response.body().write("more".getBytes(StandardCharsets.ISO_8859_1));
        };

        assertThat(serveToAResetClient(flushesAndIgnoresTheFailure)).isEqualTo(Outcome.ABORT);
    }

    private static Outcome serveToAResetClient(RequestHandler handler) {
        ServerContext context = new ServerContext(ServerConfig.builder().build(), handler, Runnable::run, Runnable::run,
                Thread::new);
        try {
            MemoryChannel channel = new MemoryChannel("").resetByClient();
            HttpConnection connection = new HttpConnection(context, channel, outcome -> { });
            Outcome outcome = connection.serve(parse(GET));
            connection.release();
            assertThat(context.pool().leased()).as("buffers still leased").isZero();
            assertThat(context.counters().requestsActive.sum()).as("requests still active").isZero();
            return outcome;
        } finally {
            context.close();
        }
    }

    private static RequestHead parse(String head) {
        return new RequestHeadParser(ParserLimits.DEFAULT).parse(ByteBuffer.wrap(head.getBytes(
                StandardCharsets.ISO_8859_1)));
    }
}
