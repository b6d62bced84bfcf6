package io.sprout.engine.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ResponseHeadEncoderTest {

    private static String text(ResponseHeadEncoder encoder) {
        return new String(encoder.bytes(), 0, encoder.length(), StandardCharsets.ISO_8859_1);
    }

    @Test
    void writesStatusLineFieldsAndTheEmptyLine() {
        ResponseHeadEncoder encoder = new ResponseHeadEncoder()
                .start(HttpVersion.HTTP_1_1, 200)
                .field("Content-Type", "text/plain")
                .field("Content-Length", 5L)
                .end();

        assertThat(text(encoder)).isEqualTo("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\n");
    }

    @Test
    void aTrimmedEncoderHoldsNoArrayUntilItsNextHead() {
        ResponseHeadEncoder encoder = new ResponseHeadEncoder().start(HttpVersion.HTTP_1_1, 200).end();

        encoder.trim();
        assertThat(encoder.bytes()).isNull();
        assertThat(encoder.length()).isZero();

        encoder.start(HttpVersion.HTTP_1_1, 204).field("X-Long", "v".repeat(1000)).end();
        assertThat(text(encoder)).isEqualTo("HTTP/1.1 204 No Content\r\nX-Long: " + "v".repeat(1000) + "\r\n\r\n");
    }

    @Test
    void writesTheVersionAndReasonPhraseOfTheStatus() {
        assertThat(text(new ResponseHeadEncoder().start(HttpVersion.HTTP_1_0, 404).end()))
                .isEqualTo("HTTP/1.0 404 Not Found\r\n\r\n");
        assertThat(text(new ResponseHeadEncoder().start(HttpVersion.HTTP_1_1, 431).end()))
                .isEqualTo("HTTP/1.1 431 Request Header Fields Too Large\r\n\r\n");
    }

    @Test
    void keepsTheSpaceBeforeAnEmptyReasonPhrase() {
        assertThat(text(new ResponseHeadEncoder().start(HttpVersion.HTTP_1_1, 299).end()))
                .isEqualTo("HTTP/1.1 299 \r\n\r\n");
    }

    @Test
    void neutralisesCrAndLfInValuesSoAHandlerCannotSplitTheResponse() {
        ResponseHeadEncoder encoder = new ResponseHeadEncoder()
                .start(HttpVersion.HTTP_1_1, 200)
                .field("Location", "/a\r\nSet-Cookie: stolen=1\r\n\r\n<html>")
                .field("X-Bare", "a\rb\nc")
                .end();

        assertThat(text(encoder)).isEqualTo("HTTP/1.1 200 OK\r\n"
                + "Location: /a  Set-Cookie: stolen=1    <html>\r\n"
                + "X-Bare: a b c\r\n\r\n");
    }

    @Test
    void neutralisesCrAndLfInNames() {
        ResponseHeadEncoder encoder = new ResponseHeadEncoder()
                .start(HttpVersion.HTTP_1_1, 200)
                .field("X-A\r\nX-Injected", "1")
                .end();

        assertThat(text(encoder)).isEqualTo("HTTP/1.1 200 OK\r\nX-A  X-Injected: 1\r\n\r\n");
    }

    @Test
    void writesLatin1AsIsAndOtherCharactersAsQuestionMarks() {
        ResponseHeadEncoder encoder = new ResponseHeadEncoder()
                .start(HttpVersion.HTTP_1_1, 200)
                .field("X-Name", "caf\u00e9 \u20ac \ud83c\udf31")
                .end();

        assertThat(text(encoder)).isEqualTo("HTTP/1.1 200 OK\r\nX-Name: caf\u00e9 ? ??\r\n\r\n");
    }

    @Test
    void growsForLargeHeads() {
        String big = "v".repeat(5000);

        ResponseHeadEncoder encoder = new ResponseHeadEncoder().start(HttpVersion.HTTP_1_1, 200);
        for (int i = 0; i < 3; i++) {
            encoder.field("X-" + i, big);
        }
        encoder.end();

        assertThat(encoder.length()).isEqualTo("HTTP/1.1 200 OK\r\n".length() + 3 * ("X-0: ".length() + 5002) + 2);
        assertThat(text(encoder)).endsWith(big + "\r\n\r\n");
    }

    @Test
    void writesNumericValuesInDecimal() {
        ResponseHeadEncoder encoder = new ResponseHeadEncoder().start(HttpVersion.HTTP_1_1, 200)
                .field("A", 0L).field("B", 10L).field("C", 1_234_567L).field("D", Long.MAX_VALUE).field("E", -42L)
                .end();

        assertThat(text(encoder)).isEqualTo("HTTP/1.1 200 OK\r\nA: 0\r\nB: 10\r\nC: 1234567\r\nD: "
                + Long.MAX_VALUE + "\r\nE: -42\r\n\r\n");
    }

    @Test
    void startsAfreshForEachHead() {
        ResponseHeadEncoder encoder = new ResponseHeadEncoder();
        encoder.start(HttpVersion.HTTP_1_1, 500).field("X-Long", "x".repeat(100)).end();

        encoder.start(HttpVersion.HTTP_1_1, 204).end();

        assertThat(text(encoder)).isEqualTo("HTTP/1.1 204 No Content\r\n\r\n");
    }
}
