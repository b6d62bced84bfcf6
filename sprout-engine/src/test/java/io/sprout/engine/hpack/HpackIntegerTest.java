package io.sprout.engine.hpack;

import static io.sprout.engine.hpack.Blocks.hex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Prefix integers (RFC 7541 §5.1): the examples of Appendix C.1, the prefix boundaries, and overlong input. */
class HpackIntegerTest {

    @Test
    void decodesTheExamplesOfAppendixC1() throws HpackException {
        assertThat(decode("0a", 5)).isEqualTo(10);
        assertThat(decode("1f9a0a", 5)).isEqualTo(1337);
        assertThat(decode("2a", 8)).isEqualTo(42);
    }

    @Test
    void encodesTheExamplesOfAppendixC1() {
        assertThat(encode(0, 5, 10)).containsExactly(0x0a);
        assertThat(encode(0, 5, 1337)).containsExactly(0x1f, 0x9a, 0x0a);
        assertThat(encode(0xe0, 5, 1337)).containsExactly(0xff, 0x9a, 0x0a);
    }

    @ParameterizedTest
    @ValueSource(ints = {4, 5, 6, 7})
    void roundTripsValuesAroundThePrefixBoundary(int prefixBits) throws HpackException {
        int full = (1 << prefixBits) - 1;
        for (int value : new int[] {0, 1, full - 1, full, full + 1, full + 127, full + 128, 16_383, 16_384,
                (1 << 21) - 1, 1 << 21, (1 << 28) - 1, 1 << 28, Integer.MAX_VALUE - 1, Integer.MAX_VALUE}) {
            int[] octets = encode(0, prefixBits, value);
            assertThat(octets.length == 1).as("%d fits the prefix", value).isEqualTo(value < full);
            assertThat(decode(octets, prefixBits)).as("%d with a %d-bit prefix", value, prefixBits).isEqualTo(value);
        }
    }

    @Test
    void leavesTheFlagBitsOutOfTheValue() throws HpackException {
        assertThat(decode("ef", 5)).isEqualTo(15);
        assertThat(decode("ff00", 5)).isEqualTo(31);
    }

    @ParameterizedTest
    @ValueSource(ints = {4, 5, 6, 7})
    void rejectsAValueAboveIntegerMaxValue(int prefixBits) {
        long tooLarge = Integer.MAX_VALUE + 1L - ((1 << prefixBits) - 1);
        ByteBuffer in = ByteBuffer.allocate(6);
        in.put((byte) ((1 << prefixBits) - 1));
        for (int i = 0; i < 4; i++) {
            in.put((byte) (tooLarge >>> (7 * i) & 0x7f | 0x80));
        }
        in.put((byte) (tooLarge >>> 28));
        in.flip();
        int first = in.get() & 0xff;

        assertThatThrownBy(() -> PrefixInteger.decode(first, prefixBits, in)).isInstanceOf(HpackException.class)
                .hasMessageContaining("larger than");
    }

    @Test
    void rejectsMoreThanFiveContinuationOctetsEvenIfTheyAddNothing() {
        assertThatThrownBy(() -> decode("1f 80 80 80 80 80 00", 5)).isInstanceOf(HpackException.class)
                .hasMessageContaining("continuation octets");
    }

    @Test
    void rejectsAnIntegerCutOffByTheEndOfTheBlock() {
        assertThatThrownBy(() -> decode("1f 9a", 5)).isInstanceOf(HpackException.class)
                .hasMessageContaining("ends inside an integer");
    }

    private static int decode(String dump, int prefixBits) throws HpackException {
        ByteBuffer in = hex(dump);
        int value = PrefixInteger.decode(in.get() & 0xff, prefixBits, in);
        assertThat(in.hasRemaining()).isFalse();
        return value;
    }

    private static int decode(int[] octets, int prefixBits) throws HpackException {
        ByteBuffer in = ByteBuffer.allocate(octets.length);
        for (int octet : octets) {
            in.put((byte) octet);
        }
        in.flip();
        int value = PrefixInteger.decode(in.get() & 0xff, prefixBits, in);
        assertThat(in.hasRemaining()).isFalse();
        return value;
    }

    private static int[] encode(int flags, int prefixBits, int value) {
        BlockWriter writer = new BlockWriter();
        writer.integer(flags, prefixBits, value);
        return unsigned(Arrays.copyOf(writer.octets(), writer.length()));
    }

    private static int[] unsigned(byte[] octets) {
        int[] values = new int[octets.length];
        for (int i = 0; i < octets.length; i++) {
            values[i] = octets[i] & 0xff;
        }
        return values;
    }
}
