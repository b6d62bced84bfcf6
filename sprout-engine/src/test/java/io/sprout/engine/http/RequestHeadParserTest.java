package io.sprout.engine.http;

import static io.sprout.engine.http.Feedings.sameForEveryFeeding;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sprout.engine.http.HeadRuns.Head;
import io.sprout.engine.http.HeadRuns.Result;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The request-head parser on valid input. Every case is fed whole, one byte at a time, split at every index and
 * in a direct buffer ({@link Feedings}); rejections live in {@link StrictnessCorpusTest}.
 */
class RequestHeadParserTest {

    private static final ParserLimits LIMITS = ParserLimits.DEFAULT;

    private static Result parseOne(String raw) {
        return sameForEveryFeeding(raw, pieces -> HeadRuns.parseOne(LIMITS, pieces));
    }

    private static Result parseAll(String raw) {
        return sameForEveryFeeding(raw, pieces -> HeadRuns.parseAll(LIMITS, pieces));
    }

    /** Parses once, whole, to look at the objects themselves (identity of cached strings). */
    private static RequestHead parseWhole(RequestHeadParser parser, String raw) {
        ByteBuffer in = ByteBuffer.wrap(Feedings.bytes(raw));
        RequestHead head = parser.parse(in);
        assertThat(head).as("head of %s", raw).isNotNull();
        assertThat(in.hasRemaining()).isFalse();
        return head;
    }

    @Test
    void parsesMinimalGet() {
        Result result = parseOne("GET / HTTP/1.1\r\nHost: example.com\r\n\r\n");

        assertThat(result.only()).isEqualTo(
                new Head("GET", "/", HttpVersion.HTTP_1_1, List.of("Host: example.com")));
        assertThat(result.leftover()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH", "TRACE", "PROPFIND",
        "M-SEARCH", "get", "X!#$%&'*+-.^_`|~9"})
    void parsesAnyTokenAsMethodCaseSensitively(String method) {
        Head head = parseOne(method + " / HTTP/1.1\r\nHost: a\r\n\r\n").only();

        assertThat(head.method()).isEqualTo(method);
    }

    @Test
    void returnsSharedConstantsForStandardMethods() {
        RequestHeadParser parser = new RequestHeadParser(LIMITS);

        RequestHead get = parseWhole(parser, "GET / HTTP/1.1\r\nHost: a\r\n\r\n");
        RequestHead head = parseWhole(parser, "HEAD / HTTP/1.1\r\nHost: a\r\n\r\n");

        assertThat(get.method()).isSameAs(Methods.GET);
        assertThat(head.method()).isSameAs(Methods.HEAD);
        assertThat(head.isHead()).isTrue();
        assertThat(get.isHead()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"/", "/a/b/c", "/search?q=a+b&lang=en%20GB", "/p;a=b/c?x=y/z?w",
        "/~user/!$&'()*+,;=:@-._", "http://example.com/", "http://example.com:8080/path?q=1",
        "https://EXAMPLE.com", "*", "example.com:443"})
    void keepsTargetExactlyAsSent(String target) {
        Head head = parseOne("OPTIONS " + target + " HTTP/1.1\r\nHost: example.com\r\n\r\n").only();

        assertThat(head.target()).isEqualTo(target);
    }

    @Test
    void acceptsObsTextInFieldValues() {
        Head head = parseOne("GET / HTTP/1.1\r\nHost: a\r\nX-Name: caf\u00e9 \u0080\u00a0\u00ff end\r\n\r\n").only();

        assertThat(head.fields()).containsExactly("Host: a", "X-Name: caf\u00e9 \u0080\u00a0\u00ff end");
    }

    @Test
    void trimsWhitespaceAroundValuesButKeepsInnerWhitespace() {
        Head head = parseOne("GET / HTTP/1.1\r\nHost:a\r\nX-A:  \t one \t two\t \r\nX-Empty:\r\nX-Blank: \t \r\n\r\n")
                .only();

        assertThat(head.fields()).containsExactly("Host: a", "X-A: one \t two", "X-Empty: ", "X-Blank: ");
    }

    @Test
    void canonicalisesCommonNamesAndKeepsOtherNamesAsSent() {
        RequestHeadParser parser = new RequestHeadParser(LIMITS);

        RequestHead head = parseWhole(parser,
                "GET / HTTP/1.1\r\nhost: a\r\nCONTENT-length: 0\r\nx-CuStOm: 1\r\n\r\n");

        assertThat(head.headers().name(0)).isSameAs(HeaderNames.HOST);
        assertThat(head.headers().name(1)).isSameAs(HeaderNames.CONTENT_LENGTH);
        assertThat(head.headers().name(2)).isEqualTo("x-CuStOm");
        assertThat(head.headers().get("X-Custom")).isEqualTo("1");
    }

    @Test
    void keepsRepeatedFieldsInOrder() {
        Head head = parseOne("GET / HTTP/1.1\r\nHost: a\r\nAccept: text/html\r\nX-B: 1\r\naccept: */*\r\n\r\n")
                .only();

        assertThat(head.fields()).containsExactly("Host: a", "Accept: text/html", "X-B: 1", "Accept: */*");
    }

    @Test
    void ignoresLeadingEmptyLines() {
        Head head = parseOne("\r\n\r\nGET /x HTTP/1.1\r\nHost: a\r\n\r\n").only();

        assertThat(head.target()).isEqualTo("/x");
    }

    @Test
    void acceptsEightLeadingEmptyLinesAndRejectsTheNinth() {
        String eight = "\r\n".repeat(8);

        assertThat(parseOne(eight + "GET / HTTP/1.1\r\nHost: a\r\n\r\n").only().target()).isEqualTo("/");
        assertThat(parseOne(eight + "\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n").rejectedWith()).isEqualTo(400);
    }

    @Test
    void parsesHttp10WithoutHost() {
        Head head = parseOne("GET /old HTTP/1.0\r\n\r\n").only();

        assertThat(head).isEqualTo(new Head("GET", "/old", HttpVersion.HTTP_1_0, List.of()));
    }

    @Test
    void parsesAHundredFields() {
        StringBuilder raw = new StringBuilder("GET / HTTP/1.1\r\nHost: a\r\n");
        List<String> expected = new ArrayList<>(List.of("Host: a"));
        for (int i = 1; i < 100; i++) {
            raw.append("X-Field-").append(i).append(": value ").append(i).append("\r\n");
            expected.add("X-Field-" + i + ": value " + i);
        }
        raw.append("\r\n");

        assertThat(parseOne(raw.toString()).only().fields()).containsExactlyElementsOf(expected);
    }

    @Test
    void parsesTypicalBrowserRequest() {
        Head head = parseOne("""
                GET /index.html?from=home HTTP/1.1\r
                Host: www.example.com\r
                User-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0\r
                Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8\r
                Accept-Language: en-GB,en;q=0.5\r
                Accept-Encoding: gzip, deflate, br, zstd\r
                Connection: keep-alive\r
                Cookie: session=abc123; theme=dark\r
                Upgrade-Insecure-Requests: 1\r
                Sec-Fetch-Dest: document\r
                Sec-Fetch-Mode: navigate\r
                \r
                """).only();

        assertThat(head.target()).isEqualTo("/index.html?from=home");
        assertThat(head.fields()).hasSize(10)
                .contains("Accept-Encoding: gzip, deflate, br, zstd", "Cookie: session=abc123; theme=dark");
    }

    @Test
    void leavesBodyBytesInTheBuffer() {
        Result result = parseOne("POST /form HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\nhello=world");

        assertThat(result.only().method()).isEqualTo("POST");
        assertThat(result.leftover()).isEqualTo("hello=world");
    }

    @Test
    void leavesPipelinedRequestInTheBuffer() {
        Result result = parseOne("GET /a HTTP/1.1\r\nHost: a\r\n\r\nGET /b HTTP/1.1\r\nHost: a\r\n\r\nGET /c");

        assertThat(result.only().target()).isEqualTo("/a");
        assertThat(result.leftover()).isEqualTo("GET /b HTTP/1.1\r\nHost: a\r\n\r\nGET /c");
    }

    @Test
    void parsesPipelinedRequestsInOrderWithOneParser() {
        Result result = parseAll("GET /a HTTP/1.1\r\nHost: a\r\n\r\n"
                + "POST /b HTTP/1.1\r\nHost: b\r\nContent-Type: text/plain\r\nX-Trace: 1\r\n\r\n"
                + "\r\nHEAD /c HTTP/1.0\r\n\r\n"
                + "GET /d HTTP/1.1\r\nHost: d\r\n\r\n");

        assertThat(result.heads()).containsExactly(
                new Head("GET", "/a", HttpVersion.HTTP_1_1, List.of("Host: a")),
                new Head("POST", "/b", HttpVersion.HTTP_1_1,
                        List.of("Host: b", "Content-Type: text/plain", "X-Trace: 1")),
                new Head("HEAD", "/c", HttpVersion.HTTP_1_0, List.of()),
                new Head("GET", "/d", HttpVersion.HTTP_1_1, List.of("Host: d")));
        assertThat(result.rejectedWith()).isZero();
        assertThat(result.leftover()).isEmpty();
    }

    @Test
    void keepsAPartialPipelinedHeadForLater() {
        Result result = parseAll("GET /a HTTP/1.1\r\nHost: a\r\n\r\nGET /b HTTP/1.1\r\nHo");

        assertThat(result.heads()).extracting(Head::target).containsExactly("/a");
        assertThat(result.leftover()).isEqualTo("(partial head)");
    }

    @Test
    void neverReturnsACachedStringForDifferentBytes() {
        Result result = parseAll("GET /abc HTTP/1.1\r\nHost: a\r\nX-A: one\r\nX-B: same\r\n\r\n"
                + "GET /abd HTTP/1.1\r\nHost: a\r\nX-A: onf\r\nX-B: same\r\n\r\n"
                + "GET /ab HTTP/1.1\r\nHost: a\r\nX-A: on\r\nX-B: samesame\r\n\r\n"
                + "GET /abc HTTP/1.1\r\nHost: a\r\nX-B: one\r\nX-A: \r\n\r\n"
                + "GET /abc HTTP/1.1\r\nHost: a\r\nX-A: caf\u00e9\r\n\r\n"
                + "GET /abc HTTP/1.1\r\nHost: a\r\nX-A: caf\u00e8\r\n\r\n");

        assertThat(result.heads()).containsExactly(
                new Head("GET", "/abc", HttpVersion.HTTP_1_1, List.of("Host: a", "X-A: one", "X-B: same")),
                new Head("GET", "/abd", HttpVersion.HTTP_1_1, List.of("Host: a", "X-A: onf", "X-B: same")),
                new Head("GET", "/ab", HttpVersion.HTTP_1_1, List.of("Host: a", "X-A: on", "X-B: samesame")),
                new Head("GET", "/abc", HttpVersion.HTTP_1_1, List.of("Host: a", "X-B: one", "X-A: ")),
                new Head("GET", "/abc", HttpVersion.HTTP_1_1, List.of("Host: a", "X-A: caf\u00e9")),
                new Head("GET", "/abc", HttpVersion.HTTP_1_1, List.of("Host: a", "X-A: caf\u00e8")));
    }

    @Test
    void reusesStringsOfValuesRepeatedOnTheSameConnection() {
        RequestHeadParser parser = new RequestHeadParser(LIMITS);
        String raw = "GET /same HTTP/1.1\r\nHost: a\r\nUser-Agent: wrk\r\n\r\n";

        RequestHead first = parseWhole(parser, raw);
        RequestHead second = parseWhole(parser, raw);

        assertThat(second.target()).isSameAs(first.target());
        assertThat(second.headers().value(1)).isSameAs(first.headers().value(1));
        assertThat(second.headers()).isNotSameAs(first.headers());
    }

    @Test
    void returnsNullAndConsumesEverythingWhileTheHeadIsIncomplete() {
        RequestHeadParser parser = new RequestHeadParser(LIMITS);
        ByteBuffer part = ByteBuffer.wrap(Feedings.bytes("GET / HTTP/1.1\r\nHost: a\r\n"));

        assertThat(parser.parse(part)).isNull();
        assertThat(part.hasRemaining()).isFalse();
        assertThat(parser.parse(ByteBuffer.allocate(0))).isNull();
        assertThat(parser.parse(ByteBuffer.wrap(Feedings.bytes("\r\n")))).isNotNull();
    }

    @Test
    void reportsAHeadInProgressOnlyOnceBytesArrive() {
        RequestHeadParser parser = new RequestHeadParser(LIMITS);

        assertThat(parser.inProgress()).isFalse();
        parser.parse(ByteBuffer.wrap(Feedings.bytes("GE")));
        assertThat(parser.inProgress()).isTrue();
    }

    @Test
    void forgetsAPartialHeadOnReset() {
        RequestHeadParser parser = new RequestHeadParser(LIMITS);
        parser.parse(ByteBuffer.wrap(Feedings.bytes("POST /a HTTP/1.1\r\nX-Half: ")));

        parser.reset();

        assertThat(parser.inProgress()).isFalse();
        RequestHead head = parseWhole(parser, "GET /b HTTP/1.1\r\nHost: b\r\n\r\n");
        assertThat(HeadRuns.Head.of(head)).isEqualTo(new Head("GET", "/b", HttpVersion.HTTP_1_1, List.of("Host: b")));
    }

    @Test
    void reportsNoHeadInProgressAfterADirectBufferHeadCompletes() {
        RequestHeadParser parser = new RequestHeadParser(LIMITS);
        byte[] raw = Feedings.bytes("GET / HTTP/1.1\r\nHost: a\r\n\r\n");

        assertThat(parser.parse(ByteBuffer.allocateDirect(raw.length).put(raw).flip())).isNotNull();

        assertThat(parser.inProgress()).isFalse();
    }

    @Test
    void reportsNoHeadInProgressAfterAHeapBufferHeadCompletes() {
        RequestHeadParser parser = new RequestHeadParser(LIMITS);

        assertThat(parser.parse(ByteBuffer.wrap(Feedings.bytes("GET / HTTP/1.1\r\nHost: a\r\n\r\n")))).isNotNull();

        assertThat(parser.inProgress()).isFalse();
    }

    @Test
    void keepsParsingAfterAHeadCompletesWithBytesOfTheNextOne() {
        RequestHeadParser parser = new RequestHeadParser(LIMITS);
        ByteBuffer in = ByteBuffer.wrap(Feedings.bytes("GET /a HTTP/1.1\r\nHost: a\r\n\r\nGET /b HTTP/1.1\r\n"));

        assertThat(parser.parse(in).target()).isEqualTo("/a");
        assertThat(parser.parse(in)).isNull();
        assertThat(parser.parse(ByteBuffer.wrap(Feedings.bytes("Host: b\r\n\r\n"))).target()).isEqualTo("/b");
    }

    @Test
    void rejectsAFirstByteThatCannotStartAMethodWithoutWaitingForTheLineToEnd() {
        RequestHeadParser parser = new RequestHeadParser(LIMITS);
        // The start of a TLS ClientHello: no CR or LF follows for hundreds of bytes, if ever.
        ByteBuffer clientHello = ByteBuffer.wrap(new byte[] {0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00});

        assertThatThrownBy(() -> parser.parse(clientHello)).isInstanceOfSatisfying(HttpException.class,
                rejected -> assertThat(rejected.status()).isEqualTo(400));
    }

    @Test
    void honoursCustomLimits() {
        ParserLimits small = new ParserLimits(32, 64, 3, 4096, 8192);
        String line = "GET /" + "a".repeat(32 - "GET / HTTP/1.1".length()) + " HTTP/1.1\r\n";
        String longerLine = "GET /" + "a".repeat(33 - "GET / HTTP/1.1".length()) + " HTTP/1.1\r\n";

        assertThat(parseWith(small, line + "Host: a\r\nB: 1\r\nC: 2\r\n\r\n").only().fields()).hasSize(3);
        assertThat(parseWith(small, line + "Host: a\r\nB: 1\r\nC: 2\r\nD: 3\r\n\r\n").rejectedWith()).isEqualTo(431);
        assertThat(parseWith(small, longerLine + "Host: a\r\n\r\n").rejectedWith()).isEqualTo(414);
        assertThat(parseWith(small, line + "Host: " + "h".repeat(60) + "\r\n\r\n").rejectedWith()).isEqualTo(431);
    }

    @Test
    void aParserTrimmedBetweenHeadsParsesTheNextAsBefore() {
        RequestHeadParser parser = new RequestHeadParser(LIMITS);
        RequestHead first = parseWhole(parser, "GET /a HTTP/1.1\r\nHost: a\r\n\r\n");

        parser.trim();
        RequestHead second = parseWhole(parser,
                "GET /a HTTP/1.1\r\nHost: a\r\nAccept: " + "x".repeat(600) + "\r\n\r\n");

        assertThat(second.target()).as("the values remembered across the trim").isSameAs(first.target());
        assertThat(second.headers().get("Accept")).hasSize(600);
    }

    @Test
    void aTrimInTheMiddleOfAHeadKeepsTheLineSoFar() {
        RequestHeadParser parser = new RequestHeadParser(LIMITS);
        assertThat(parser.parse(ByteBuffer.wrap(Feedings.bytes("GET /b HTTP/1.1\r\nHo")))).isNull();

        parser.trim();

        RequestHead head = parser.parse(ByteBuffer.wrap(Feedings.bytes("st: b\r\n\r\n")));
        assertThat(head.target()).isEqualTo("/b");
        assertThat(head.headers().get("Host")).isEqualTo("b");
    }

    private static Result parseWith(ParserLimits limits, String raw) {
        return sameForEveryFeeding(raw, pieces -> HeadRuns.parseOne(limits, pieces));
    }
}
