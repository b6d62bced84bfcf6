package io.sprout.engine.hpack;

import static io.sprout.engine.hpack.Blocks.decode;
import static io.sprout.engine.hpack.Blocks.entries;
import static io.sprout.engine.hpack.Blocks.hex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the decoder rejects as a compression error, and how it bounds the decoded list without losing step with
 * the peer's table.
 */
class HpackDecoderTest {

    private final HpackDecoder decoder = new HpackDecoder(4096, 8192);

    @Test
    void rejectsIndexZero() {
        assertCompressionError(hex("80"), "index 0");
    }

    @Test
    void rejectsAnIndexBeyondTheStaticAndDynamicTables() throws Exception {
        assertCompressionError(hex("be"), "beyond");

        decode(decoder, new BlockBuilder().literalWithIndexing("x", "y").build());
        assertThat(decode(decoder, hex("be"))).containsExactly("x: y");
        assertCompressionError(hex("bf"), "beyond");
    }

    @Test
    void rejectsANameIndexBeyondTheTables() {
        assertCompressionError(new BlockBuilder().integer(0x40, 6, 62).raw("v").build(), "beyond");
        assertCompressionError(new BlockBuilder().integer(0x00, 4, 62).raw("v").build(), "beyond");
        assertCompressionError(new BlockBuilder().integer(0x10, 4, 62).raw("v").build(), "beyond");
    }

    @Test
    void acceptsSizeUpdatesUpToTheAdvertisedSizeAtTheStartOfABlock() throws Exception {
        decode(decoder, new BlockBuilder().literalWithIndexing("x", "y").build());

        assertThat(decode(decoder, new BlockBuilder().sizeUpdate(0).sizeUpdate(4096).indexed(2).build()))
                .containsExactly(":method: GET");
        assertThat(decoder.table().length()).isZero();
        assertThat(decoder.table().maxSize()).isEqualTo(4096);
    }

    @Test
    void startsAtTheInitialSizeOf4096UntilThePeerSignalsALargerTable() throws Exception {
        HpackDecoder large = new HpackDecoder(65_536, 1 << 20);
        BlockBuilder block = new BlockBuilder();
        for (int i = 0; i < 5; i++) {
            block.literalWithIndexing("k" + i, "v".repeat(990)); // 1,024 octets each: four fill 4096
        }

        decode(large, block.build());
        assertThat(large.table().length()).isEqualTo(4);
        assertThat(large.table().maxSize()).isEqualTo(4096);

        decode(large, new BlockBuilder().sizeUpdate(65_536).build());
        assertThat(large.table().maxSize()).isEqualTo(65_536);
    }

    @Test
    void rejectsASizeUpdateAboveTheAdvertisedSize() {
        assertCompressionError(new BlockBuilder().sizeUpdate(4097).build(), "exceeds the advertised 4096");
    }

    @Test
    void rejectsASizeUpdateAfterAField() {
        assertCompressionError(new BlockBuilder().indexed(2).sizeUpdate(100).build(), "after a field");
    }

    @Test
    void evictsEntriesThatNoLongerFitAfterASizeUpdate() throws Exception {
        decode(decoder, new BlockBuilder().literalWithIndexing("a", "1").literalWithIndexing("b", "2").build());
        assertThat(decoder.table().size()).isEqualTo(68);

        decode(decoder, new BlockBuilder().sizeUpdate(34).build());

        assertThat(entries(decoder.table())).containsExactly("b: 2");
        assertCompressionError(hex("bf"), "beyond");
    }

    @Test
    void rejectsAStringLongerThanTheRestOfTheBlock() {
        assertCompressionError(hex("400a 6375 7374 6f6d"), "left in the header block");
        assertCompressionError(hex("4105 61"), "left in the header block");
        assertCompressionError(hex("418c f1e3"), "left in the header block");
    }

    @Test
    void rejectsABlockEndingInsideARepresentation() {
        assertCompressionError(hex("40"), "before a string literal");
        assertCompressionError(hex("41"), "before a string literal");
        assertCompressionError(hex("ff"), "ends inside an integer");
    }

    @Test
    void rejectsHuffmanStringsWithBadPaddingOrEos() {
        assertCompressionError(hex("4181ff"), "padded");
        assertCompressionError(hex("41811e"), "padded");
        assertCompressionError(hex("4185fffffffc7f"), "EOS");
    }

    @Test
    void rejectsAHugeStringLength() {
        assertCompressionError(hex("417f ffff ffff 7f"), "larger than");
    }

    @Test
    void decodesNamesAndValuesAsOneCharPerOctetWithoutJudgingThem() throws Exception {
        ByteBuffer block = new BlockBuilder().integer(0x00, 4, 0).raw("X-Caf\u00e9").raw("\u00ff\u0000\r\n").build();

        assertThat(decode(decoder, block)).containsExactly("X-Caf\u00e9: \u00ff\u0000\r\n");
    }

    @Test
    void emptiesTheTableForAnEntryLargerThanTheTable() throws Exception {
        HpackDecoder small = new HpackDecoder(256, 8192);
        decode(small, new BlockBuilder().literalWithIndexing("a", "1").build());

        assertThat(decode(small, new BlockBuilder().literalWithIndexing("big", "v".repeat(300)).build()))
                .containsExactly("big: " + "v".repeat(300));
        assertThat(small.table().length()).isZero();
        assertThat(small.table().size()).isZero();
    }

    @Test
    void deliversFieldsUpToTheListLimitThenReportsTheWholeSizeAndStaysInStep() throws Exception {
        HpackDecoder limited = new HpackDecoder(4096, 100);
        List<String> fields = new ArrayList<>();
        // 33 + 34 + 35 = 102: the third field passes the limit of 100; the fourth is small but comes after it.
        ByteBuffer block = new BlockBuilder().literalWithIndexing("a", "").literalWithIndexing("b", "1")
                .literalWithIndexing("c", "22").indexed(2).build();

        assertThatThrownBy(() -> limited.decode(block, (name, value) -> fields.add(name + ": " + value)))
                .isInstanceOfSatisfying(HeaderListTooLargeException.class,
                        e -> assertThat(e.decodedSize()).isEqualTo(33 + 34 + 35 + 42));
        assertThat(fields).containsExactly("a: ", "b: 1");
        assertThat(block.hasRemaining()).isFalse();
        // Every insertion happened, so the next block's references mean what the peer meant.
        assertThat(entries(limited.table())).containsExactly("c: 22", "b: 1", "a: ");
        assertThat(decode(limited, hex("be c0"))).containsExactly("c: 22", "a: ");
    }

    @Test
    void countsALiteralLongerThanAnyLimitWithoutKeepingItAndStillEmptiesTheTable() throws Exception {
        HpackDecoder limited = new HpackDecoder(256, 1000);
        decode(limited, new BlockBuilder().literalWithIndexing("a", "1").build());
        ByteBuffer raw = new BlockBuilder().literalWithIndexing("x", "v".repeat(5000)).build();
        ByteBuffer huffman = new BlockBuilder().integer(0x40, 6, 0).huffman("x").huffman("v".repeat(5000)).build();

        for (ByteBuffer block : List.of(raw, huffman)) {
            List<String> fields = new ArrayList<>();
            assertThatThrownBy(() -> limited.decode(block, (name, value) -> fields.add(name)))
                    .isInstanceOfSatisfying(HeaderListTooLargeException.class,
                            e -> assertThat(e.decodedSize()).isEqualTo(1 + 5000 + 32));
            assertThat(fields).isEmpty();
            assertThat(limited.table().length()).isZero();
        }
    }

    @Test
    void boundsAnHpackBombToTheFieldsWithinTheLimit() {
        HpackDecoder limited = new HpackDecoder(4096, 8192);
        BlockBuilder bomb = new BlockBuilder().literalWithIndexing("x", "v".repeat(4000));
        for (int i = 0; i < 10_000; i++) {
            bomb.indexed(62);
        }
        List<String> values = new ArrayList<>();

        assertThatThrownBy(() -> limited.decode(bomb.build(), (name, value) -> values.add(value)))
                .isInstanceOfSatisfying(HeaderListTooLargeException.class,
                        e -> assertThat(e.decodedSize()).isEqualTo(10_001L * (1 + 4000 + 32)));
        // Two fields of 4,033 fit in 8,192; the other 9,999 references were counted, not delivered.
        assertThat(values).hasSize(2);
        assertThat(values.get(1)).isSameAs(limited.table().value(1));
    }

    @Test
    void acceptsAnEmptyBlock() throws Exception {
        assertThat(decode(decoder, ByteBuffer.allocate(0))).isEmpty();
    }

    private void assertCompressionError(ByteBuffer block, String message) {
        assertThatThrownBy(() -> decoder.decode(block, (name, value) -> { }))
                .isInstanceOf(HpackException.class).hasMessageContaining(message);
    }
}
