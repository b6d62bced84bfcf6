package io.sprout.engine.hpack;

import static io.sprout.engine.hpack.Blocks.decode;
import static io.sprout.engine.hpack.Blocks.entries;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What the encoder writes, and that a decoder reads it back, table in step, across many blocks and table sizes. */
class HpackEncoderTest {

    private final HpackEncoder encoder = new HpackEncoder();
    private final HpackDecoder decoder = new HpackDecoder(4096, 1 << 20);

    @ParameterizedTest
    @ValueSource(ints = {200, 204, 206, 304, 400, 404, 500})
    void encodesTheStaticTablesStatusesAsOneOctet(int status) throws Exception {
        encoder.start().status(status);

        assertThat(hex(encoder)).isEqualTo(HexFormat.of().toHexDigits((byte) (0x88 + List.of(200, 204, 206, 304,
                400, 404, 500).indexOf(status))));
        assertThat(decodeBlock()).containsExactly(":status: " + status);
    }

    @Test
    void encodesAnotherStatusAsALiteralWithName8AndThenAsItsIndex() throws Exception {
        encoder.start().status(201);
        assertThat(encoder.bytes()[0]).isEqualTo((byte) 0x48);
        assertThat(decodeBlock()).containsExactly(":status: 201");

        encoder.start().status(201);
        assertThat(hex(encoder)).isEqualTo("be");
        assertThat(decodeBlock()).containsExactly(":status: 201");
    }

    @Test
    void lowerCasesNames() throws Exception {
        encoder.start().field("Content-Type", "text/html").field("X-Request-ID", "Abc");

        assertThat(decodeBlock()).containsExactly("content-type: text/html", "x-request-id: Abc");
    }

    @Test
    void replacesCharsThatCannotBeSentOrWouldSplitAField() throws Exception {
        encoder.start().field("x-note", "a\r\nb\u0000c\u20acd\u00e9");

        assertThat(decodeBlock()).containsExactly("x-note: a  b c?d\u00e9");
    }

    @Test
    void indexesRepeatingFieldsSoTheNextBlockSendsThemAsOneOctet() throws Exception {
        encoder.start().field("content-type", "application/json").field("date", "Mon, 21 Oct 2013 20:13:21 GMT");
        decodeBlock();

        encoder.start().field("content-type", "application/json").field("date", "Mon, 21 Oct 2013 20:13:21 GMT");

        assertThat(hex(encoder)).isEqualTo("bfbe");
        assertThat(decodeBlock()).containsExactly("content-type: application/json",
                "date: Mon, 21 Oct 2013 20:13:21 GMT");
    }

    @Test
    void doesNotIndexUnlistedNamesOrLongValues() throws Exception {
        encoder.start().field("content-length", "42").field("x-custom", "1").field("content-type", "t".repeat(257));

        assertThat(decodeBlock()).hasSize(3);
        assertThat(encoder.table().length()).isZero();
        assertThat(decoder.table().length()).isZero();
    }

    @Test
    void sendsCredentialsNeverIndexed() throws Exception {
        encoder.start().field("Set-Cookie", "id=1").field("authorization", "Basic eA==");

        // 0001 with the 4-bit prefix full (15) and 55 - 15 = 40 following: set-cookie's static name, never indexed.
        assertThat(hex(encoder)).startsWith("1f28");
        assertThat(decodeBlock()).containsExactly("set-cookie: id=1", "authorization: Basic eA==");
        assertThat(encoder.table().length()).isZero();
    }

    @Test
    void usesHuffmanOnlyWhenItIsShorter() {
        encoder.start().field("x-a", "www.example.com");
        // x-a: literal name 3 octets (Huffman 3 too, so plain); value Huffman 12 octets instead of 15.
        assertThat(encoder.length()).isEqualTo(1 + 1 + 3 + 1 + 12);

        encoder.start().field("x-a", "\u00ff\u00fe");
        // Octets above 0x7f have codes of 20 bits or more: sent plain.
        assertThat(encoder.length()).isEqualTo(1 + 1 + 3 + 1 + 2);
        assertThat(encoder.bytes()[5]).isEqualTo((byte) 0x02);
    }

    @Test
    void signalsAPeersSmallerTableAtTheStartOfTheNextBlock() throws Exception {
        encoder.start().field("server", "sprout");
        decodeBlock();

        encoder.peerMaxTableSize(256);
        encoder.start().field("server", "sprout");

        // 001 with the 5-bit prefix full (31), 256 - 31 = 225 as 0xe1 0x01; the entry still fits.
        assertThat(hex(encoder)).isEqualTo("3fe101be");
        assertThat(decodeBlock()).containsExactly("server: sprout");
        assertThat(decoder.table().maxSize()).isEqualTo(256);
    }

    @Test
    void signalsATableOfZeroAndThenIndexesNothing() throws Exception {
        encoder.start().field("server", "sprout");
        decodeBlock();

        encoder.peerMaxTableSize(0);
        encoder.start().field("server", "sprout");

        assertThat(hex(encoder)).startsWith("20");
        assertThat(decodeBlock()).containsExactly("server: sprout");
        assertThat(encoder.table().length()).isZero();
        assertThat(decoder.table().length()).isZero();
    }

    @Test
    void signalsTheSmallestSizeThenTheFinalOneWhenTheTableShrankAndGrewBetweenBlocks() throws Exception {
        encoder.start().field("server", "sprout");
        decodeBlock();

        encoder.peerMaxTableSize(0);
        encoder.peerMaxTableSize(8192);
        encoder.peerMaxTableSize(100);
        encoder.peerMaxTableSize(4096);
        encoder.start().field("server", "sprout");

        // 0, then 4096 (capped from nothing larger than the default): 31 + 4065 = 0x3f 0xe1 0x1f.
        assertThat(hex(encoder)).startsWith("203fe11f");
        assertThat(decodeBlock()).containsExactly("server: sprout");
        assertThat(decoder.table().maxSize()).isEqualTo(4096);
        assertThat(entries(decoder.table())).containsExactly("server: sprout");
    }

    @Test
    void capsThePeersTableAtTheDefaultAndSignalsOnlyOnce() throws Exception {
        encoder.peerMaxTableSize(65_536);
        encoder.start().field("server", "sprout");
        assertThat(hex(encoder)).startsWith("3fe11f");
        decodeBlock();

        encoder.start().field("server", "sprout");

        assertThat(hex(encoder)).isEqualTo("be");
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 256, 4096})
    void roundTripsRandomHeadsOverManyBlocksWithTheTablesInStep(int peerTableSize) throws Exception {
        Random random = new Random(peerTableSize + 7541L);
        HpackDecoder peer = new HpackDecoder(peerTableSize, 1 << 20);
        encoder.peerMaxTableSize(peerTableSize);
        for (int block = 0; block < 2_000; block++) {
            List<String> expected = new ArrayList<>();
            encoder.start();
            if (random.nextInt(4) == 0) {
                int status = STATUSES[random.nextInt(STATUSES.length)];
                encoder.status(status);
                expected.add(":status: " + status);
            }
            for (int i = random.nextInt(12); i > 0; i--) {
                String name = NAMES[random.nextInt(NAMES.length)];
                String value = value(random);
                encoder.field(name, value);
                expected.add(name.toLowerCase(Locale.ROOT) + ": " + value);
            }

            ByteBuffer octets = ByteBuffer.wrap(Arrays.copyOf(encoder.bytes(), encoder.length()));
            assertThat(decode(peer, octets)).as("block %d", block).isEqualTo(expected);
            assertThat(entries(peer.table())).as("block %d", block).isEqualTo(entries(encoder.table()));
            assertThat(peer.table().size()).isLessThanOrEqualTo(peerTableSize);
        }
    }

    @Test
    void roundTripsWhileThePeersTableSizeKeepsChanging() throws Exception {
        Random random = new Random(9113);
        int[] sizes = {0, 64, 256, 1000, 4096, 10_000};
        for (int block = 0; block < 2_000; block++) {
            for (int changes = random.nextInt(6) == 0 ? random.nextInt(3) + 1 : 0; changes > 0; changes--) {
                encoder.peerMaxTableSize(sizes[random.nextInt(sizes.length)]);
            }
            List<String> expected = new ArrayList<>();
            encoder.start();
            for (int i = random.nextInt(10); i > 0; i--) {
                String name = NAMES[random.nextInt(NAMES.length)];
                String value = value(random);
                encoder.field(name, value);
                expected.add(name.toLowerCase(Locale.ROOT) + ": " + value);
            }

            assertThat(decodeBlock()).as("block %d", block).isEqualTo(expected);
            assertThat(entries(decoder.table())).as("block %d", block).isEqualTo(entries(encoder.table()));
        }
    }

    private static final int[] STATUSES = {200, 201, 204, 301, 302, 304, 404, 418, 500, 503};

    private static final String[] NAMES = {"content-type", "Content-Type", "server", "cache-control", "vary", "date",
        "content-encoding", "content-language", "content-length", "etag", "last-modified", "location", "set-cookie",
        "x-request-id", "x-custom-header", "access-control-allow-origin", "strict-transport-security", "link",
        "X-Trace"};

    private static final String[] VALUES = {"text/html; charset=utf-8", "application/json", "sprout", "no-cache",
        "private, max-age=60", "accept-encoding", "gzip", "en", "Mon, 21 Oct 2013 20:13:21 GMT", "*", "0", "", "1",
        "\"abc\"", "https://www.example.com/a/b?c=d"};

    /** Mostly values that repeat; sometimes a fresh one, long, or with octets above 0x7f. */
    private static String value(Random random) {
        return switch (random.nextInt(10)) {
            case 0 -> "v" + random.nextInt(100_000);
            case 1 -> "x".repeat(200 + random.nextInt(200));
            case 2 -> {
                char[] chars = new char[random.nextInt(20)];
                for (int i = 0; i < chars.length; i++) {
                    chars[i] = (char) (0x20 + random.nextInt(0xe0));
                }
                yield new String(chars).replace('\u007f', 'x');
            }
            default -> VALUES[random.nextInt(VALUES.length)];
        };
    }

    private List<String> decodeBlock() throws Exception {
        return decode(decoder, ByteBuffer.wrap(Arrays.copyOf(encoder.bytes(), encoder.length())));
    }

    private static String hex(HpackEncoder encoder) {
        return HexFormat.of().formatHex(encoder.bytes(), 0, encoder.length());
    }
}
