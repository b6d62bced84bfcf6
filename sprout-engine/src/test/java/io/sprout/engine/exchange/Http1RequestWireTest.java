package io.sprout.engine.exchange;

import static org.assertj.core.api.Assertions.assertThat;

import io.sprout.engine.ServerConfig;
import io.sprout.engine.http.BodyFraming;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The HTTP/1.1 request body below the exchange: framing, {@code 100 Continue}, and what it leaves for the next request. */
class Http1RequestWireTest {

    private final ServerContext context = new ServerContext(ServerConfig.builder().build(),
            (request, response) -> { }, Runnable::run, Runnable::run, Thread::new);
    private MemoryChannel channel;
    private HttpConnection connection;

    @AfterEach
    void close() {
        connection.release();
        assertThat(context.pool().leased()).as("buffers still leased").isZero();
        context.close();
    }

    @Test
    void readsExactlyTheDeclaredLengthAndLeavesThePipelinedBytes() throws IOException {
        RequestBody body = body("helloGET / HTTP/1.1\r\n", new BodyFraming.Fixed(5), false);

        assertThat(new String(body.readAllBytes(), StandardCharsets.ISO_8859_1)).isEqualTo("hello");
        assertThat(body.finished()).isTrue();
        assertThat(connection.inbound().buffer().remaining()).isEqualTo("GET / HTTP/1.1\r\n".length());
    }

    @Test
    void decodesAChunkedBodyAndKeepsItsTrailers() throws IOException {
        RequestBody body = body("3\r\nabc\r\n2\r\nde\r\n0\r\nX-Sum: 5\r\n\r\n", new BodyFraming.Chunked(), false);

        assertThat(new String(body.readAllBytes(), StandardCharsets.ISO_8859_1)).isEqualTo("abcde");
        assertThat(body.trailers().get("X-Sum")).isEqualTo("5");
    }

    @Test
    void asksForTheBodyOnceBeforeTheFirstWait() throws IOException {
        RequestBody body = body("hello", new BodyFraming.Fixed(5), true);
        assertThat(body.awaitingContinue()).isTrue();

        body.readAllBytes();

        assertThat(channel.written()).isEqualTo("HTTP/1.1 100 Continue\r\n\r\n");
        assertThat(body.awaitingContinue()).isFalse();
    }

    @Test
    void drainsWithoutAskingForABodyTheClientHoldsBack() throws IOException {
        RequestBody body = body("hello", new BodyFraming.Fixed(5), true);

        assertThat(body.drain(1024)).as("connection reusable").isFalse();
        assertThat(channel.written()).isEmpty();
    }

    @Test
    void refusesToDrainMoreThanTheLimitOfAKnownLength() throws IOException {
        RequestBody body = body("0123456789", new BodyFraming.Fixed(10), false);

        assertThat(body.drain(4)).isFalse();
        assertThat(channel.written()).isEmpty();
    }

    private RequestBody body(String clientSends, BodyFraming framing, boolean expectContinue) {
        channel = new MemoryChannel(clientSends);
        connection = new HttpConnection(context, channel, outcome -> { });
        return new RequestBody(context, connection.requestWire(framing, expectContinue));
    }
}
