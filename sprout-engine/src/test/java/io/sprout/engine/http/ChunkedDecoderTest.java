package io.sprout.engine.http;

import static io.sprout.engine.http.Feedings.sameForEveryFeeding;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The chunked decoder on valid bodies, fed whole, byte by byte, split at every index and in a direct buffer, into
 * destination arrays of several sizes. Malformed framing lives in {@link StrictnessCorpusTest}.
 */
class ChunkedDecoderTest {

    private static final ParserLimits LIMITS = ParserLimits.DEFAULT;

    /** What decoding produced: the body, the trailers as {@code name: value}, whether -1 came, and the rest. */
    record Decoded(String body, List<String> trailers, boolean ended, String leftover, int rejectedWith) {
    }

    private static Decoded decode(String raw) {
        return decode(raw, 64);
    }

    private static Decoded decode(String raw, int destinationSize) {
        return sameForEveryFeeding(raw, pieces -> run(pieces, destinationSize));
    }

    private static Decoded run(List<ByteBuffer> pieces, int destinationSize) {
        ChunkedDecoder decoder = new ChunkedDecoder(LIMITS);
        byte[] dst = new byte[destinationSize + 2];
        StringBuilder body = new StringBuilder();
        try {
            for (int p = 0; p < pieces.size(); p++) {
                ByteBuffer piece = pieces.get(p);
                while (true) {
                    // Offset 1 with guard bytes either side: the decoder must write only where it is told to.
                    dst[0] = '<';
                    dst[dst.length - 1] = '>';
                    int copied = decoder.decode(piece, dst, 1, destinationSize);
                    assertThat(dst[0]).isEqualTo((byte) '<');
                    assertThat(dst[dst.length - 1]).isEqualTo((byte) '>');
                    if (copied < 0) {
                        assertThat(decoder.done()).isTrue();
                        return new Decoded(body.toString(), trailers(decoder),
                                true, Feedings.leftover(piece, pieces.subList(p + 1, pieces.size())), 0);
                    }
                    if (copied == 0) {
                        assertThat(piece.hasRemaining()).as("0 returned with input left").isFalse();
                        break;
                    }
                    assertThat(copied).isLessThanOrEqualTo(destinationSize);
                    for (int i = 0; i < copied; i++) {
                        body.append((char) (dst[1 + i] & 0xff));
                    }
                }
            }
            assertThat(decoder.done()).isFalse();
            return new Decoded(body.toString(), trailers(decoder), false, "", 0);
        } catch (HttpException e) {
            return new Decoded("", List.of(), false, "", e.status());
        }
    }

    private static List<String> trailers(ChunkedDecoder decoder) {
        List<String> fields = new ArrayList<>();
        HeaderFields trailers = decoder.trailers();
        for (int i = 0; i < trailers.size(); i++) {
            fields.add(trailers.name(i) + ": " + trailers.value(i));
        }
        return fields;
    }

    @Test
    void decodesASingleChunk() {
        assertThat(decode("5\r\nhello\r\n0\r\n\r\n")).isEqualTo(new Decoded("hello", List.of(), true, "", 0));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 7, 64})
    void decodesSeveralChunksIntoAnyDestinationSize(int destinationSize) {
        Decoded decoded = decode("5\r\nhello\r\n1\r\n \r\nA\r\n0123456789\r\n1a\r\nabcdefghijklmnopqrstuvwxyz\r\n"
                + "0\r\n\r\n", destinationSize);

        assertThat(decoded).isEqualTo(
                new Decoded("hello 0123456789abcdefghijklmnopqrstuvwxyz", List.of(), true, "", 0));
    }

    @Test
    void acceptsUpperAndLowerCaseHexAndLeadingZeros() {
        String chunk = "x".repeat(0xab);

        assertThat(decode("AB\r\n" + chunk + "\r\n0ab\r\n" + chunk + "\r\n000\r\n\r\n").body())
                .isEqualTo(chunk + chunk);
    }

    @Test
    void decodesAnEmptyBody() {
        assertThat(decode("0\r\n\r\n")).isEqualTo(new Decoded("", List.of(), true, "", 0));
    }

    @Test
    void passesBinaryAndCrLfInsideChunkDataThrough() {
        assertThat(decode("6\r\n\r\n\u0000\u00ff\n\r\r\n0\r\n\r\n").body()).isEqualTo("\r\n\u0000\u00ff\n\r");
    }

    @Test
    void ignoresChunkExtensions() {
        Decoded decoded = decode("5;name=value;flag;q=\"quoted ; \\\" text\"\r\nhello\r\n3;\u00e9=\u00ff\r\nabc\r\n"
                + "0;last=yes\r\n\r\n");

        assertThat(decoded).isEqualTo(new Decoded("helloabc", List.of(), true, "", 0));
    }

    @Test
    void capturesTrailersWithoutSurroundingWhitespace() {
        Decoded decoded = decode("3\r\nabc\r\n0\r\nX-Checksum:  sha256=abc \r\nserver-timing:db;dur=5\r\n"
                + "X-Empty:\r\nX-Obs: caf\u00e9\r\n\r\n");

        assertThat(decoded.trailers()).containsExactly(
                "X-Checksum: sha256=abc", "server-timing: db;dur=5", "X-Empty: ", "X-Obs: caf\u00e9");
        assertThat(decoded.body()).isEqualTo("abc");
    }

    @Test
    void keepsFramingFieldsInTrailersWithoutActingOnThem() {
        Decoded decoded = decode("3\r\nabc\r\n0\r\nContent-Length: 100\r\nTransfer-Encoding: chunked\r\n\r\nNEXT");

        assertThat(decoded).isEqualTo(new Decoded("abc",
                List.of("Content-Length: 100", "Transfer-Encoding: chunked"), true, "NEXT", 0));
    }

    @Test
    void canonicalisesCommonTrailerNames() {
        ChunkedDecoder decoder = new ChunkedDecoder(LIMITS);

        decoder.decode(ByteBuffer.wrap(Feedings.bytes("0\r\ncontent-type: text/plain\r\n\r\n")), new byte[8], 0, 8);

        assertThat(decoder.trailers().name(0)).isSameAs(HeaderNames.CONTENT_TYPE);
    }

    @Test
    void leavesBytesAfterTheLastChunkUnread() {
        Decoded decoded = decode("2\r\nok\r\n0\r\n\r\nGET /next HTTP/1.1\r\n\r\n");

        assertThat(decoded.leftover()).isEqualTo("GET /next HTTP/1.1\r\n\r\n");
    }

    @Test
    void waitsForTheEmptyLineThatEndsTheTrailers() {
        Decoded decoded = decode("2\r\nok\r\n0\r\nX-T: 1\r\n");

        assertThat(decoded).isEqualTo(new Decoded("ok", List.of("X-T: 1"), false, "", 0));
    }

    @Test
    void signalsTheEndWithMinusOneInTheCallThatReadsIt() {
        ChunkedDecoder decoder = new ChunkedDecoder(LIMITS);
        byte[] dst = new byte[16];
        ByteBuffer in = ByteBuffer.wrap(Feedings.bytes("2\r\nok\r\n0\r\n\r\n"));

        assertThat(decoder.decode(in, dst, 0, dst.length)).isEqualTo(2);
        assertThat(decoder.done()).isFalse();
        assertThat(decoder.decode(in, dst, 0, dst.length)).isEqualTo(-1);
        assertThat(decoder.done()).isTrue();
        assertThat(in.hasRemaining()).isFalse();
    }

    @Test
    void keepsSignallingTheEndOnEveryLaterCall() {
        ChunkedDecoder decoder = new ChunkedDecoder(LIMITS);
        byte[] dst = new byte[4];
        decoder.decode(ByteBuffer.wrap(Feedings.bytes("0\r\n\r\n")), dst, 0, dst.length);

        assertThat(decoder.decode(ByteBuffer.allocate(0), dst, 0, dst.length)).isEqualTo(-1);
        assertThat(decoder.decode(ByteBuffer.wrap(Feedings.bytes("more")), dst, 0, dst.length)).isEqualTo(-1);
    }

    @Test
    void returnsZeroWhenInputRunsOutBeforeAnyBodyByte() {
        ChunkedDecoder decoder = new ChunkedDecoder(LIMITS);
        byte[] dst = new byte[4];

        assertThat(decoder.decode(ByteBuffer.allocate(0), dst, 0, dst.length)).isZero();
        assertThat(decoder.decode(ByteBuffer.wrap(Feedings.bytes("a;x\r")), dst, 0, dst.length)).isZero();
        assertThat(decoder.done()).isFalse();
    }

    @Test
    void copiesNoMoreThanAskedAndNoMoreThanTheChunk() {
        ChunkedDecoder decoder = new ChunkedDecoder(LIMITS);
        byte[] dst = new byte[16];
        ByteBuffer in = ByteBuffer.wrap(Feedings.bytes("3\r\nabc\r\n4\r\ndefg\r\n0\r\n\r\n"));

        assertThat(decoder.decode(in, dst, 5, 2)).isEqualTo(2);
        assertThat(new String(dst, 5, 2, java.nio.charset.StandardCharsets.ISO_8859_1)).isEqualTo("ab");
        assertThat(decoder.decode(in, dst, 0, 16)).isEqualTo(1);
        assertThat(decoder.decode(in, dst, 0, 16)).isEqualTo(4);
        assertThat(decoder.decode(in, dst, 0, 16)).isEqualTo(-1);
    }

    @Test
    void acceptsTheLargestFifteenDigitChunkSize() {
        ChunkedDecoder decoder = new ChunkedDecoder(LIMITS);
        byte[] dst = new byte[8];
        ByteBuffer in = ByteBuffer.wrap(Feedings.bytes("fffffffffffffff\r\nabcdefgh"));

        assertThat(decoder.decode(in, dst, 0, dst.length)).isEqualTo(8);
        assertThat(decoder.done()).isFalse();
    }

    /** The decoder's documented limit, stricter than overflow: a 16th digit is refused even after zeros. */
    @ParameterizedTest
    @ValueSource(strings = {"1000000000000000", "0000000000000005"})
    void rejectsChunkSizesOfMoreThanFifteenDigits(String size) {
        assertThat(decode(size + "\r\nhello\r\n0\r\n\r\n").rejectedWith()).isEqualTo(400);
    }
}
