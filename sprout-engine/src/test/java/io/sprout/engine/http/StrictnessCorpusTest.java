package io.sprout.engine.http;

import static io.sprout.engine.http.Feedings.sameForEveryFeeding;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The strictness and smuggling corpus: every row of REFERENCE.md §4 that the codec decides, as raw request bytes
 * and the status the codec must answer. A row runs the head parser, {@link RequestRules#validate} and, for a
 * chunked body, the {@link ChunkedDecoder}, fed whole, byte by byte, split at every index and in a direct buffer.
 *
 * <p>{@value #ACCEPTED} means the codec hands the request on (for a chunked body: decoded to its end);
 * {@value #NEEDS_MORE} would mean it is still waiting for bytes, which no row expects.
 */
class StrictnessCorpusTest {

    static final int ACCEPTED = 200;
    static final int NEEDS_MORE = 0;

    private static final ParserLimits LIMITS = ParserLimits.DEFAULT;
    private static final long MAX_BODY = 1 << 20;

    private static final String GET = "GET / HTTP/1.1\r\nHost: example.com\r\n";
    private static final String POST = "POST /upload HTTP/1.1\r\nHost: example.com\r\n";
    private static final String CHUNKED = POST + "Transfer-Encoding: chunked\r\n\r\n";
    private static final String END = "\r\n";

    @ParameterizedTest(name = "[{index}] {0} -> {1}")
    @MethodSource("corpus")
    void answersEveryRowAsTheReferenceSays(String row, int expected, String raw) {
        int answer = sameForEveryFeeding(raw, StrictnessCorpusTest::codecAnswer);

        assertThat(answer).as(row).isEqualTo(expected);
    }

    /**
     * REFERENCE.md §4 says 431 only for a header section <em>larger than</em> 8 KB, and {@link ParserLimits} counts
     * "field lines with their CRLFs": 8192 bytes of field lines must pass.
     */
    @Test
    void acceptsAHeaderSectionOfExactlyTheLimit() {
        String raw = GET + field("X-Pad", LIMITS.maxHeaderSectionSize() - "Host: example.com\r\n".length()) + END;

        assertThat(sameForEveryFeeding(raw, StrictnessCorpusTest::codecAnswer)).isEqualTo(ACCEPTED);
    }

    /** Parses the head, validates it, and decodes a chunked body to its end, as a connection would. */
    static int codecAnswer(List<ByteBuffer> pieces) {
        RequestHeadParser parser = new RequestHeadParser(LIMITS);
        ChunkedDecoder decoder = null;
        byte[] sink = new byte[7];
        try {
            for (ByteBuffer piece : pieces) {
                if (decoder == null) {
                    RequestHead head = parser.parse(piece);
                    if (head == null) {
                        continue;
                    }
                    BodyFraming framing = RequestRules.validate(head, MAX_BODY);
                    if (!(framing instanceof BodyFraming.Chunked)) {
                        // A fixed-length body needs no more decisions from the codec.
                        return ACCEPTED;
                    }
                    decoder = new ChunkedDecoder(LIMITS);
                }
                while (true) {
                    int copied = decoder.decode(piece, sink, 0, sink.length);
                    if (copied < 0) {
                        return ACCEPTED;
                    }
                    if (copied == 0) {
                        assertThat(piece.hasRemaining()).as("decoder returned 0 with bytes left").isFalse();
                        break;
                    }
                }
            }
            return NEEDS_MORE;
        } catch (HttpException e) {
            return e.status();
        }
    }

    static Stream<Arguments> corpus() {
        List<Arguments> rows = new ArrayList<>();
        contentLengthAndTransferEncoding(rows);
        fieldSyntax(rows);
        chunkedBodies(rows);
        sizeLimits(rows);
        hostAndTarget(rows);
        versionsMethodsAndExpectations(rows);
        smuggling(rows);
        return rows.stream();
    }

    private static void contentLengthAndTransferEncoding(List<Arguments> rows) {
        row(rows, "accepts a plain Content-Length", ACCEPTED, POST + "Content-Length: 5\r\n\r\nhello");
        row(rows, "accepts Content-Length with surrounding whitespace", ACCEPTED,
                POST + "Content-Length: \t5 \r\n\r\nhello");
        row(rows, "rejects Content-Length with Transfer-Encoding", 400,
                POST + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n");
        row(rows, "rejects Transfer-Encoding with Content-Length", 400,
                POST + "Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n");
        row(rows, "rejects Content-Length with Transfer-Encoding on HTTP/1.0", 400,
                "POST / HTTP/1.0\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n");
        row(rows, "rejects two Content-Length fields with different values", 400,
                POST + "Content-Length: 5\r\nContent-Length: 6\r\n\r\nhello!");
        row(rows, "rejects two Content-Length fields with equal values", 400,
                POST + "Content-Length: 5\r\ncontent-length: 5\r\n\r\nhello");
        for (String value : List.of("+5", "-1", "0x5", "5, 5", "5,5", "5 5", "5.0", "5e0", "", "\u00b2",
                "9223372036854775808", "99999999999999999999", "5;", "\"5\"")) {
            row(rows, "rejects Content-Length '" + value + "'", 400,
                    POST + "Content-Length: " + value + "\r\n\r\nhello");
        }
        row(rows, "rejects Content-Length with a NUL", 400, POST + "Content-Length: 5\0\r\n\r\nhello");

        row(rows, "accepts Transfer-Encoding chunked", ACCEPTED, CHUNKED + "5\r\nhello\r\n0\r\n\r\n");
        row(rows, "accepts Transfer-Encoding CHUNKED in any case", ACCEPTED,
                POST + "Transfer-Encoding: CHUNKED\r\n\r\n5\r\nhello\r\n0\r\n\r\n");
        row(rows, "rejects Transfer-Encoding whose final coding is gzip", 400,
                POST + "Transfer-Encoding: chunked, gzip\r\n\r\n0\r\n\r\n");
        row(rows, "rejects Transfer-Encoding gzip without chunked", 400,
                POST + "Transfer-Encoding: gzip\r\n\r\n0\r\n\r\n");
        row(rows, "rejects Transfer-Encoding identity", 400, POST + "Transfer-Encoding: identity\r\n\r\n");
        row(rows, "rejects chunked twice in one field", 400,
                POST + "Transfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n");
        row(rows, "rejects chunked twice in two fields", 400,
                POST + "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n");
        row(rows, "rejects chunked before another field's coding", 400,
                POST + "Transfer-Encoding: chunked\r\nTransfer-Encoding: gzip\r\n\r\n0\r\n\r\n");
        row(rows, "rejects Transfer-Encoding on HTTP/1.0", 400,
                "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n");
        row(rows, "answers 501 to an unknown coding before chunked", 501,
                POST + "Transfer-Encoding: x-custom, chunked\r\n\r\n0\r\n\r\n");
        row(rows, "answers 501 to gzip before chunked in separate fields", 501,
                POST + "Transfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n");
        row(rows, "rejects an empty Transfer-Encoding", 400, POST + "Transfer-Encoding:\r\n\r\n");
        row(rows, "rejects Transfer-Encoding with an empty list element", 400,
                POST + "Transfer-Encoding: , chunked\r\n\r\n0\r\n\r\n");
        row(rows, "rejects Transfer-Encoding with a trailing comma", 400,
                POST + "Transfer-Encoding: chunked,\r\n\r\n0\r\n\r\n");
        row(rows, "rejects chunked with a parameter", 400,
                POST + "Transfer-Encoding: chunked;q=1\r\n\r\n0\r\n\r\n");
        row(rows, "rejects quoted chunked", 400, POST + "Transfer-Encoding: \"chunked\"\r\n\r\n0\r\n\r\n");
        row(rows, "rejects Transfer-Encoding with whitespace before the colon", 400,
                POST + "Transfer-Encoding : chunked\r\n\r\n0\r\n\r\n");
        row(rows, "rejects Transfer-Encoding ending in a vertical tab", 400,
                POST + "Transfer-Encoding: chunked\u000b\r\n\r\n0\r\n\r\n");
        row(rows, "rejects chunked obs-folded onto another coding", 400,
                POST + "Transfer-Encoding: gzip,\r\n chunked\r\n\r\n0\r\n\r\n");
    }

    private static void fieldSyntax(List<Arguments> rows) {
        row(rows, "rejects a space before the colon", 400, GET + "X-A : b\r\n\r\n");
        row(rows, "rejects a tab before the colon", 400, GET + "X-A\t: b\r\n\r\n");
        row(rows, "rejects a space before the colon of Host", 400, "GET / HTTP/1.1\r\nHost : a\r\n\r\n");
        row(rows, "rejects an obs-fold continuation with a space", 400, GET + "X-A: b\r\n c\r\n\r\n");
        row(rows, "rejects an obs-fold continuation with a tab", 400, GET + "X-A: b\r\n\tc\r\n\r\n");
        row(rows, "rejects whitespace before the first field line", 400,
                "GET / HTTP/1.1\r\n Host: example.com\r\n\r\n");
        row(rows, "rejects a CR inside a value", 400, GET + "X-A: b\rc\r\n\r\n");
        row(rows, "rejects an LF inside a value", 400, GET + "X-A: b\nc\r\n\r\n");
        String[][] controls = {{"NUL", "\0"}, {"SOH", "\u0001"}, {"BS", "\b"}, {"VT", "\u000b"}, {"FF", "\f"},
            {"ESC", "\u001b"}, {"US", "\u001f"}, {"DEL", "\u007f"}};
        for (String[] control : controls) {
            row(rows, "rejects " + control[0] + " inside a value", 400, GET + "X-A: b" + control[1] + "c\r\n\r\n");
        }
        row(rows, "rejects a NUL ending a value", 400, GET + "X-A: b\0\r\n\r\n");
        row(rows, "rejects a NUL starting a value", 400, GET + "X-A: \0b\r\n\r\n");
        row(rows, "accepts a tab inside a value", ACCEPTED, GET + "X-A: b\tc\r\n\r\n");
        row(rows, "accepts obs-text 0x80-0xFF in a value", ACCEPTED, GET + "X-A: \u0080caf\u00e9\u00ff\r\n\r\n");
        for (String name : List.of("X(A)", "X A", "X\"A", "X/A", "X@A", "X[A]", "X{A}", "X=A", "X,A", "X;A",
                "X\\A", "X?A", "X\u00e9", "X\0A", "X\u007fA")) {
            row(rows, "rejects the field name '" + name + "'", 400, GET + name + ": b\r\n\r\n");
        }
        row(rows, "rejects an empty field name", 400, GET + ": b\r\n\r\n");
        row(rows, "rejects a field line without a colon", 400, GET + "X-A b\r\n\r\n");
        row(rows, "rejects a bare CR in the request line", 400, "GET /\r HTTP/1.1\r\nHost: a\r\n\r\n");
        row(rows, "rejects a bare CR ending the request line", 400, "GET / HTTP/1.1\rHost: a\r\n\r\n");
        row(rows, "rejects a bare CR ending a field line", 400, GET + "X-A: b\rX-B: c\r\n\r\n");
        row(rows, "rejects CR CR LF ending a field line", 400, GET + "X-A: b\r\r\n\r\n");
        row(rows, "rejects a bare CR inside a field name", 400, GET + "X-\rA: b\r\n\r\n");
        row(rows, "rejects a bare CR as the empty line", 400, GET + "\r" + "GET / HTTP/1.1\r\n\r\n");
        row(rows, "rejects a bare CR before the request line", 400, "\rGET / HTTP/1.1\r\nHost: a\r\n\r\n");
        row(rows, "rejects a bare LF ending the request line", 400, "GET / HTTP/1.1\nHost: a\r\n\r\n");
        row(rows, "rejects a bare LF ending a field line", 400, GET + "X-A: b\n\r\n");
        row(rows, "rejects a bare LF as the empty line", 400, GET + "\n");
        row(rows, "rejects bare LF line endings throughout", 400, "GET / HTTP/1.1\nHost: a\n\n");
        row(rows, "rejects a bare LF before the request line", 400, "\nGET / HTTP/1.1\r\nHost: a\r\n\r\n");
        row(rows, "accepts empty lines before the request line", ACCEPTED, "\r\n\r\n" + GET + END);
    }

    private static void chunkedBodies(List<Arguments> rows) {
        row(rows, "accepts several chunks with extensions and trailers", ACCEPTED, CHUNKED
                + "5;name=value;q=\"a ; b\"\r\nhello\r\nA\r\n0123456789\r\n0;last\r\nX-Checksum: abc\r\n\r\n");
        for (String size : List.of("g", "+5", "-5", "0x5", " 5", "5 ", "5\t", "5 5", "\u00b5", "5.0")) {
            row(rows, "rejects the chunk size '" + size + "'", 400, CHUNKED + size + "\r\nhello\r\n0\r\n\r\n");
        }
        row(rows, "rejects an empty chunk size line", 400, CHUNKED + "\r\nhello\r\n0\r\n\r\n");
        row(rows, "rejects an extension without a chunk size", 400, CHUNKED + ";a=b\r\nhello\r\n0\r\n\r\n");
        row(rows, "rejects a chunk size overflowing a signed long", 400, CHUNKED + "f".repeat(16) + "\r\n");
        row(rows, "rejects a chunk size of 17 hex digits", 400, CHUNKED + "1" + "0".repeat(16) + "\r\n");
        row(rows, "rejects a bare LF after the chunk size", 400, CHUNKED + "5\nhello\r\n0\r\n\r\n");
        row(rows, "rejects a bare CR after the chunk size", 400, CHUNKED + "5\rhello\r\n0\r\n\r\n");
        row(rows, "rejects a bare LF inside a chunk extension", 400, CHUNKED + "5;a=b\nc\r\nhello\r\n0\r\n\r\n");
        row(rows, "rejects a bare LF ending a chunk extension", 400, CHUNKED + "5;a=b\nhello\r\n0\r\n\r\n");
        row(rows, "rejects a bare CR inside a chunk extension", 400, CHUNKED + "5;a\rb\r\nhello\r\n0\r\n\r\n");
        row(rows, "rejects a NUL inside a chunk extension", 400, CHUNKED + "5;a\0b\r\nhello\r\n0\r\n\r\n");
        row(rows, "rejects a bare LF in the last chunk's extension", 400, CHUNKED + "0;x\n\r\n");
        row(rows, "rejects chunk data longer than its size", 400, CHUNKED + "5\r\nhelloX\r\n0\r\n\r\n");
        row(rows, "rejects chunk data shorter than its size", 400, CHUNKED + "5\r\nhell\r\n0\r\n\r\n");
        row(rows, "rejects chunk data followed by a bare LF", 400, CHUNKED + "5\r\nhello\n0\r\n\r\n");
        row(rows, "rejects chunk data followed by a bare CR", 400, CHUNKED + "5\r\nhello\r0\r\n\r\n");
        row(rows, "rejects a bare LF after the last chunk size", 400, CHUNKED + "0\n\r\n");
        row(rows, "rejects a bare LF ending the trailer section", 400, CHUNKED + "0\r\n\n");
        row(rows, "rejects a bare CR ending the trailer section", 400, CHUNKED + "0\r\n\rX");
        row(rows, "rejects a trailer line without a colon", 400, CHUNKED + "0\r\nX-T b\r\n\r\n");
        row(rows, "rejects a trailer line with an empty name", 400, CHUNKED + "0\r\n: b\r\n\r\n");
        row(rows, "rejects a trailer with whitespace before the colon", 400, CHUNKED + "0\r\nX-T : b\r\n\r\n");
        row(rows, "rejects an obs-folded trailer line", 400, CHUNKED + "0\r\nX-T: b\r\n c\r\n\r\n");
        row(rows, "rejects a trailer line ending with a bare LF", 400, CHUNKED + "0\r\nX-T: b\n\r\n");
        row(rows, "rejects a bare CR inside a trailer line", 400, CHUNKED + "0\r\nX-T: b\rc\r\n\r\n");
        row(rows, "rejects a control byte in a trailer value", 400, CHUNKED + "0\r\nX-T: b\u0001c\r\n\r\n");
        row(rows, "accepts a chunk line of almost 4 KB", ACCEPTED,
                CHUNKED + "5;" + "a".repeat(4000) + "\r\nhello\r\n0\r\n\r\n");
        row(rows, "rejects a chunk extension over 4 KB", 400,
                CHUNKED + "5;" + "a".repeat(5000) + "\r\nhello\r\n0\r\n\r\n");
        row(rows, "rejects a trailer section over 8 KB", 400, CHUNKED + "0\r\nX-T: " + "a".repeat(9000) + "\r\n\r\n");
    }

    private static void sizeLimits(List<Arguments> rows) {
        int fieldBudget = LIMITS.maxHeaderSectionSize() - "Host: example.com\r\n".length();
        row(rows, "accepts a header section of 8190 bytes of field lines", ACCEPTED,
                GET + field("X-Pad", fieldBudget - 2) + END);
        row(rows, "rejects a header section of 8193 bytes of field lines", 431,
                GET + field("X-Pad", fieldBudget + 1) + END);
        row(rows, "rejects one field over 8 KB", 431, GET + "X-Big: " + "a".repeat(9000) + "\r\n\r\n");
        row(rows, "rejects a header section over 8 KB in many fields", 431, GET + manyFields(80, 100) + END);
        row(rows, "rejects a header section over 8 KB that never ends", 431, GET + "X-Big: " + "a".repeat(9000));
        row(rows, "accepts 100 fields", ACCEPTED, GET + manyFields(99, 1) + END);
        row(rows, "rejects 101 fields", 431, GET + manyFields(100, 1) + END);
        row(rows, "accepts an 8000-octet request line", ACCEPTED, requestLine(8000) + "\r\nHost: a\r\n\r\n");
        row(rows, "accepts a request line of exactly 8192 octets", ACCEPTED,
                requestLine(LIMITS.maxRequestLineLength()) + "\r\nHost: a\r\n\r\n");
        row(rows, "rejects a request line of 8193 octets", 414,
                requestLine(LIMITS.maxRequestLineLength() + 1) + "\r\nHost: a\r\n\r\n");
        row(rows, "rejects a request line over 8 KB", 414, requestLine(12_000) + "\r\nHost: a\r\n\r\n");
        row(rows, "rejects a request target over 8 KB that never ends", 414, "GET /" + "a".repeat(9000));
    }

    private static void hostAndTarget(List<Arguments> rows) {
        row(rows, "rejects HTTP/1.1 without Host", 400, "GET / HTTP/1.1\r\nAccept: */*\r\n\r\n");
        row(rows, "rejects two Host fields", 400, GET + "Host: other.example\r\n\r\n");
        row(rows, "rejects two equal Host fields", 400, GET + "host: example.com\r\n\r\n");
        row(rows, "rejects two Host fields on HTTP/1.0", 400, "GET / HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n");
        for (String host : List.of("exa mple.com", "example.com/path", "user@example.com", "example.com:http",
                "example.com:123456", "example.com:80:80", "[::1", "[::1]x", "[zz::1]", "[]", "exampl\u00e9.com",
                "example.com\\", "\"example.com\"", "example.com?")) {
            row(rows, "rejects the invalid Host '" + host + "'", 400, "GET / HTTP/1.1\r\nHost: " + host + "\r\n\r\n");
        }
        row(rows, "accepts a Host with a port", ACCEPTED, "GET / HTTP/1.1\r\nHost: example.com:8080\r\n\r\n");
        row(rows, "accepts an IPv6 literal Host with a port", ACCEPTED, "GET / HTTP/1.1\r\nHost: [::1]:8080\r\n\r\n");
        row(rows, "accepts an IPv4 Host", ACCEPTED, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        row(rows, "accepts HTTP/1.0 without Host", ACCEPTED, "GET / HTTP/1.0\r\n\r\n");
        row(rows, "rejects absolute-form whose authority differs from Host", 400,
                "GET http://a.example/ HTTP/1.1\r\nHost: b.example\r\n\r\n");
        row(rows, "rejects absolute-form whose port differs from Host", 400,
                "GET http://a.example:8080/ HTTP/1.1\r\nHost: a.example:9090\r\n\r\n");
        row(rows, "rejects absolute-form with userinfo", 400,
                "GET http://user@a.example/ HTTP/1.1\r\nHost: a.example\r\n\r\n");
        row(rows, "rejects absolute-form with an empty authority", 400,
                "GET http:///path HTTP/1.1\r\nHost: a.example\r\n\r\n");
        row(rows, "accepts absolute-form whose authority equals Host ignoring case", ACCEPTED,
                "GET http://A.Example:8080/p?q HTTP/1.1\r\nHost: a.example:8080\r\n\r\n");
        row(rows, "rejects absolute-form without Host on HTTP/1.1", 400, "GET http://a.example/ HTTP/1.1\r\n\r\n");
        row(rows, "accepts OPTIONS *", ACCEPTED, "OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n");
        row(rows, "rejects an asterisk target on GET", 400, "GET * HTTP/1.1\r\nHost: a\r\n\r\n");
        row(rows, "rejects a relative target without a leading slash", 400,
                "GET index.html HTTP/1.1\r\nHost: a\r\n\r\n");
        row(rows, "rejects an ftp absolute-form target", 400, "GET ftp://a/ HTTP/1.1\r\nHost: a\r\n\r\n");
    }

    private static void versionsMethodsAndExpectations(List<Arguments> rows) {
        for (String version : List.of("HTTP/2.0", "HTTP/1.2", "HTTP/0.9", "HTTP/3.0", "HTTP/1.9")) {
            row(rows, "answers 505 to " + version, 505, "GET / " + version + "\r\nHost: a\r\n\r\n");
        }
        row(rows, "answers 505 to the HTTP/2 connection preface", 505, "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");
        row(rows, "answers 505 to an HTTP/0.9 request line", 505, "GET /index.html\r\n");
        for (String version : List.of("HTTP/1.1x", "HTTP/11", "http/1.1", "HTTP/1.1 ", "HTTP/1.a", "HTTPS/1.1",
                "HTTP/ 1.1", "HTTP/1", "HTTP/1.1\0", "FOO", "HTTP/1.10", "HTTP-1.1")) {
            row(rows, "rejects the malformed version '" + version + "'", 400,
                    "GET / " + version + "\r\nHost: a\r\n\r\n");
        }
        row(rows, "answers 501 to CONNECT", 501, "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n");
        row(rows, "answers 501 to CONNECT without Host", 501, "CONNECT example.com:443 HTTP/1.1\r\n\r\n");
        row(rows, "rejects an invalid character in the method", 400, "G(T / HTTP/1.1\r\nHost: a\r\n\r\n");
        row(rows, "rejects a request line starting with a space", 400, " GET / HTTP/1.1\r\nHost: a\r\n\r\n");
        row(rows, "rejects two spaces after the method", 400, "GET  / HTTP/1.1\r\nHost: a\r\n\r\n");
        row(rows, "rejects a space inside the target", 400, "GET /a b HTTP/1.1\r\nHost: a\r\n\r\n");
        row(rows, "rejects a tab as separator", 400, "GET\t/ HTTP/1.1\r\nHost: a\r\n\r\n");
        row(rows, "rejects a control byte in the target", 400, "GET /a\u0001 HTTP/1.1\r\nHost: a\r\n\r\n");
        row(rows, "rejects DEL in the target", 400, "GET /a\u007f HTTP/1.1\r\nHost: a\r\n\r\n");
        row(rows, "rejects obs-text in the target", 400, "GET /caf\u00e9 HTTP/1.1\r\nHost: a\r\n\r\n");

        row(rows, "accepts Expect 100-continue", ACCEPTED, POST + "Expect: 100-continue\r\nContent-Length: 5\r\n\r\n");
        row(rows, "accepts Expect 100-Continue in any case", ACCEPTED,
                POST + "Expect: 100-Continue\r\nContent-Length: 5\r\n\r\n");
        row(rows, "answers 417 to Expect other than 100-continue", 417,
                POST + "Expect: 200-ok\r\nContent-Length: 5\r\n\r\nhello");
        row(rows, "answers 417 to Expect listing more than 100-continue", 417,
                POST + "Expect: 100-continue, x-more\r\nContent-Length: 5\r\n\r\nhello");
        row(rows, "answers 417 to two Expect fields", 417,
                POST + "Expect: 100-continue\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\nhello");
        row(rows, "answers 417 to an empty Expect", 417, POST + "Expect:\r\nContent-Length: 5\r\n\r\nhello");

        row(rows, "accepts a declared body exactly at the limit", ACCEPTED,
                POST + "Content-Length: " + MAX_BODY + "\r\n\r\n");
        row(rows, "answers 413 to a declared body over the limit", 413,
                POST + "Content-Length: " + (MAX_BODY + 1) + "\r\n\r\n");
        row(rows, "answers 413 to a declared body over the limit that expects 100-continue", 413,
                POST + "Expect: 100-continue\r\nContent-Length: " + (MAX_BODY + 1) + "\r\n\r\n");
        row(rows, "answers 413 to an 18-digit Content-Length", 413,
                POST + "Content-Length: 999999999999999999\r\n\r\n");
    }

    private static void smuggling(List<Arguments> rows) {
        String smuggled = "GET /admin HTTP/1.1\r\nHost: example.com\r\n\r\n";
        row(rows, "rejects CL.TE smuggling", 400,
                POST + "Content-Length: 6\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nG" + smuggled);
        row(rows, "rejects TE.CL smuggling with a tab before the colon", 400,
                POST + "Transfer-Encoding\t: chunked\r\nContent-Length: 4\r\n\r\n5c\r\n" + smuggled);
        row(rows, "rejects TE.TE smuggling with an obfuscated second coding", 400,
                POST + "Transfer-Encoding: chunked\r\nTransfer-Encoding: xchunked\r\n\r\n0\r\n\r\n" + smuggled);
        row(rows, "rejects smuggling through a bare LF chunk size line", 400,
                CHUNKED + "2;\n" + "xx\r\n0\r\n\r\n" + smuggled);
        row(rows, "rejects smuggling through a 0x-prefixed chunk size", 400,
                CHUNKED + "0x10\r\n" + smuggled + "\r\n0\r\n\r\n");
        row(rows, "rejects smuggling through a request line ending in bare LF", 400,
                "GET / HTTP/1.1\nHost: a\r\nContent-Length: 40\r\n\r\n" + smuggled);
        row(rows, "rejects smuggling through an obs-folded Content-Length", 400,
                POST + "X-A: b\r\n Content-Length: 5\r\n\r\nhello");
    }

    private static void row(List<Arguments> rows, String name, int status, String raw) {
        rows.add(Arguments.of(name, status, raw));
    }

    /** One field line of exactly {@code length} bytes including its CRLF. */
    static String field(String name, int length) {
        return name + ": " + "a".repeat(length - name.length() - 4) + "\r\n";
    }

    private static String manyFields(int count, int valueLength) {
        StringBuilder fields = new StringBuilder();
        for (int i = 0; i < count; i++) {
            fields.append("X-F").append(i).append(": ").append("v".repeat(valueLength)).append("\r\n");
        }
        return fields.toString();
    }

    /** {@code GET /aaa… HTTP/1.1} of exactly {@code length} octets, without CRLF. */
    private static String requestLine(int length) {
        String frame = "GET / HTTP/1.1";
        return "GET /" + "a".repeat(length - frame.length()) + " HTTP/1.1";
    }
}
