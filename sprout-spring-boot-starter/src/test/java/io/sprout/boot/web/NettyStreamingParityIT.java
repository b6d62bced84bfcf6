package io.sprout.boot.web;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.http.HttpRequest.BodyPublishers;
import java.nio.charset.StandardCharsets;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A WebFlux application answers identically on Sprout and on Reactor Netty (see {@link NettyParity}): streamed
 * bodies, what the application sees of a request, the shape of an answer, static resources.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("io.sprout.boot.web.Engines#all")
class NettyStreamingParityIT extends NettyParity {

    @Parameter
    Engines engines;

    // --- streams ---

    @Test
    void streamsNdjson() throws Exception {
        ParityAnswer answer = get("/stream/ndjson").assertSame();
        assertThat(answer.header("content-type")).isEqualTo("application/x-ndjson");
        assertThat(answer.text()).startsWith("{\"id\":1,\"name\":\"item-1\"}\n").hasLineCount(5);
    }

    /**
     * Text is not a streaming media type to Spring, so the body is written without a flush per element: Netty
     * sends each as a chunk as it comes, Sprout buffers the five (35 bytes) and frames them with a length.
     */
    @Test
    void streamsChunkedText() throws Exception {
        ParityAnswer answer = get("/stream/text").assertSameExceptFraming();
        assertThat(answer.text()).isEqualTo("chunk0\nchunk1\nchunk2\nchunk3\nchunk4\n");
    }

    @Test
    void streamsServerSentEvents() throws Exception {
        ParityAnswer answer = get("/stream/sse", "Accept", "text/event-stream").assertSame();
        assertThat(answer.header("content-type")).startsWith("text/event-stream");
        assertThat(answer.text()).isEqualTo(
                "id:1\nevent:tick\ndata:n1\n\nid:2\nevent:tick\ndata:n2\n\nid:3\nevent:tick\ndata:n3\n\n");
    }

    @Test
    void servesALargeBodyOfKnownLength() throws Exception {
        ParityAnswer answer = get("/stream/large").assertSame();
        assertThat(answer.body()).hasSize(1024 * 1024);
        assertThat(answer.header("content-length")).isEqualTo(String.valueOf(1024 * 1024));
    }

    @Test
    void streamsALargeBody() throws Exception {
        ParityAnswer answer = get("/stream/large-stream").assertSame();
        assertThat(answer.body()).hasSize(1024 * 1024);
    }

    @Test
    void echoesAStreamedRequestBody() throws Exception {
        byte[] upload = new byte[300 * 1024 + 7];
        new Random(42).nextBytes(upload);
        ParityAnswer answer = both("POST", "/stream/echo", BodyPublishers.ofByteArray(upload),
                "Content-Type", "application/octet-stream").assertSame();
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.body()).isEqualTo(upload);
    }

    // --- what the application sees of a request ---

    @Test
    void showsTheRequestAsNettyDoes() throws Exception {
        ParityAnswer answer = get("/req/info?b=2&a=1&a=%C3%A9&empty=&flag", "X-Many", "one", "X-Many", "two, three",
                "Cookie", "c1=v1; c2=v2").assertSameNamingTheirPorts();
        assertThat(answer.text()).contains("\"method\":\"GET\"", "\"path\":\"/req/info\"",
                "\"rawQuery\":\"b=2&a=1&a=%C3%A9&empty=&flag\"",
                "\"query\":{\"a\":[\"1\",\"é\"],\"b\":[\"2\"],\"empty\":[\"\"],\"flag\":[null]}",
                "\"cookies\":[\"c1\",\"c2\"]", "\"many\":[\"one\",\"two, three\"]", "\"remote\":\"127.0.0.1\"",
                "\"localPortIsTheHostsPort\":true", "\"secure\":false");
    }

    @Test
    void readsAUrlEncodedForm() throws Exception {
        ParityAnswer answer = both("POST", "/req/form",
                BodyPublishers.ofString("name=Gr%C3%A9goire&city=S%C3%A8te&x=1&x=2"), "Content-Type", "application/x-www-form-urlencoded").assertSame();
        assertThat(answer.text()).isEqualTo("{\"city\":[\"Sète\"],\"name\":[\"Grégoire\"],\"x\":[\"1\",\"2\"]}");
    }

    @Test
    void readsAMultipartUpload() throws Exception {
        String boundary = "parity-boundary";
        String body = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhello\r\n"
                + "--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"data.bin\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n" + "x".repeat(70_000)
                + "\r\n--" + boundary + "--\r\n";
        ParityAnswer answer = both("POST", "/req/multipart", BodyPublishers.ofString(body),
                "Content-Type", "multipart/form-data; boundary=" + boundary).assertSame();
        assertThat(answer.text()).isEqualTo("note=hello\nfile=data.bin:70000");
    }

    @Test
    void decodesATextBodyInTheCharsetItDeclares() throws Exception {
        ParityAnswer answer = both("POST", "/req/text",
                BodyPublishers.ofByteArray("café crème".getBytes(StandardCharsets.ISO_8859_1)),
                "Content-Type", "text/plain;charset=ISO-8859-1").assertSame();
        assertThat(answer.text()).isEqualTo("CAFÉ CRÈME");
    }

    @Test
    void answersExpectContinueAndEchoes() throws Exception {
        byte[] upload = new byte[40_000];
        new Random(7).nextBytes(upload);
        ParityAnswers answers = new ParityAnswers(callExpectingContinue(sprout, upload),
                callExpectingContinue(netty, upload));
        assertThat(answers.assertSame().body()).isEqualTo(upload);
    }

    // --- the shape of the answer ---

    @Test
    void answersNoContent() throws Exception {
        ParityAnswer answer = get("/res/none").assertSame();
        assertThat(answer.status()).isEqualTo(204);
        assertThat(answer.body()).isEmpty();
    }

    @Test
    void answersAnEmptyMonoWithAnEmptyBody() throws Exception {
        ParityAnswer answer = get("/res/empty").assertSame();
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.body()).isEmpty();
    }

    @Test
    void answersNotModifiedForAMatchingEtag() throws Exception {
        assertThat(get("/res/tagged").assertSame().header("etag")).isEqualTo("\"v1\"");
        ParityAnswer answer = get("/res/tagged", "If-None-Match", "\"v1\"").assertSame();
        assertThat(answer.status()).isEqualTo(304);
        assertThat(answer.body()).isEmpty();
    }

    @Test
    void redirects() throws Exception {
        ParityAnswer answer = get("/res/redirect").assertSame();
        assertThat(answer.status()).isEqualTo(302);
        assertThat(answer.header("location")).isEqualTo("/api/text");
    }

    @Test
    void sendsRepeatedAndListHeaderFields() throws Exception {
        ParityAnswer answer = get("/res/fields").assertSame();
        assertThat(answer.headers().get("x-multi")).containsExactly("a", "b");
        assertThat(answer.headers().get("x-list")).containsExactly("c, d");
    }

    @Test
    void sendsAnUnusualStatus() throws Exception {
        ParityAnswer answer = get("/res/teapot").assertSame();
        assertThat(answer.status()).isEqualTo(418);
        assertThat(answer.text()).isEqualTo("short and stout");
    }

    // --- static resources (a file: Spring writes it through ZeroCopyHttpOutputMessage) ---

    @Test
    void servesAStaticFile() throws Exception {
        ParityAnswer answer = get("/parity.txt").assertSame();
        assertThat(answer.body()).hasSize(8000);
        assertThat(answer.header("last-modified")).isNotNull();
    }

    @Test
    void servesARangeOfAStaticFile() throws Exception {
        ParityAnswer answer = get("/parity.txt", "Range", "bytes=40-79").assertSame();
        assertThat(answer.status()).isEqualTo(206);
        assertThat(answer.header("content-range")).isEqualTo("bytes 40-79/8000");
        assertThat(answer.text()).isEqualTo("static line 0001 of the parity resource\n");
    }

    @Test
    void answersHeadForAStaticFile() throws Exception {
        ParityAnswer answer = both("HEAD", "/parity.txt", BodyPublishers.noBody()).assertSame();
        assertThat(answer.header("content-length")).isEqualTo("8000");
        assertThat(answer.body()).isEmpty();
    }
}
