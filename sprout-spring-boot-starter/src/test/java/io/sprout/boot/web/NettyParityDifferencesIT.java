package io.sprout.boot.web;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where a WebFlux application's answers on Sprout and on Reactor Netty differ (see {@link NettyParity}), on purpose or
 * not: each case says which, and what Sprout must do.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("io.sprout.boot.web.Engines#all")
class NettyParityDifferencesIT extends NettyParity {

    @Parameter
    Engines engines;

    /**
     * HTTP/1.0 closes after the answer on both; Sprout also says so with {@code Connection: close}, which Netty leaves
     * implicit. Both are right (RFC 9112 §9.3), so that one field is left out.
     */
    @Test
    void answersHttp10AndCloses() throws Exception {
        ParityAnswers answers = rawBoth("GET /api/text HTTP/1.0\r\n\r\n");
        assertThat(answers.sprout().headers().get("connection")).containsExactly("close");
        ParityAnswers withoutConnection = new ParityAnswers(answers.sprout().without("connection"), answers.netty());
        assertThat(withoutConnection.assertSame().text()).isEqualTo("Hello from WebFlux");
    }

    /**
     * A streamed body for an HTTP/1.0 client: Sprout ends it by closing the connection, as RFC 9112 §6.1 requires
     * ("A server MUST NOT send a response containing Transfer-Encoding unless the corresponding request indicates
     * HTTP/1.1"); Reactor Netty 1.3 sends it chunked, which an HTTP/1.0 client cannot read. Netty is the one that
     * is wrong here, so only Sprout's answer is checked.
     */
    @Test
    void streamsToAnHttp10ClientWithoutChunks() throws Exception {
        ParityAnswer answer = raw(sprout, "GET /stream/ndjson HTTP/1.0\r\n\r\n");
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.headers()).doesNotContainKeys("transfer-encoding", "content-length");
        assertThat(answer.text()).startsWith("{\"id\":1,\"name\":\"item-1\"}\n").hasLineCount(5);
    }

    /**
     * An HTTP/1.1 request without {@code Host}: Sprout answers 400, as RFC 9112 §3.2 requires; Netty serves it.
     * Sprout's is the required behaviour; the case documents the difference.
     */
    @Test
    void rejectsAnHttp11RequestWithoutHostWhereNettyServesIt() throws Exception {
        ParityAnswers answers = rawBoth("GET /api/text HTTP/1.1\r\nConnection: close\r\n\r\n");
        assertThat(answers.sprout().status()).isEqualTo(400);
        assertThat(answers.netty().status()).isEqualTo(200);
    }

    /**
     * A text stream that fails after two elements. Netty has sent the head and both chunks by then and can only
     * break the connection off, leaving a 200 with a truncated body. Sprout still holds the two elements in its
     * response buffer (text is written without flushes, see {@link #streamsChunkedText()}), so nothing has left it
     * and it answers what happened: a 500 with an empty body. A deliberate difference; Sprout's is the more truthful.
     */
    @Test
    void answersAStreamThatFailsBeforeAnyFlushWith500() throws Exception {
        String request = "GET /stream/broken-text HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n";
        ParityAnswers answers = rawBoth(request);
        // Netty's exact bytes are its own race; what matters is that it committed a 200 and broke the body off.
        assertThat(answers.netty().status()).isEqualTo(200);
        assertThat(answers.netty().text()).startsWith("7\r\nchunk0\n\r\n").doesNotEndWith(LAST_CHUNK);
        assertThat(answers.sprout().status()).isEqualTo(500);
        assertThat(answers.sprout().header("content-length")).isEqualTo("0");
    }

    /**
     * An NDJSON stream (flushed element by element) that fails right after its second element: both servers send
     * both elements and break the chunked body off (no last chunk). Sprout once sent only the first in most runs:
     * the failure, handed to the exchange's worker, aborted before the second element's flush; what was written is
     * now sent before the abort.
     */
    @Test
    void breaksOffAFlushedStreamThatFails() throws Exception {
        ParityAnswers answers = rawBoth(
                "GET /stream/broken-ndjson HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n");
        String first = "19\r\n{\"id\":1,\"name\":\"item-1\"}\n\r\n";
        String second = "19\r\n{\"id\":2,\"name\":\"item-2\"}\n\r\n";
        assertThat(answers.netty().status()).isEqualTo(200);
        assertThat(answers.netty().text()).isEqualTo(first + second).doesNotEndWith(LAST_CHUNK);
        assertThat(answers.sprout().status()).isEqualTo(200);
        assertThat(answers.sprout().header("transfer-encoding")).isEqualTo("chunked");
        assertThat(answers.sprout().text()).isEqualTo(first + second).doesNotEndWith(LAST_CHUNK);
    }
}
