package io.sprout.engine.hpack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The Huffman code of RFC 7541 Appendix B: its transcription, both directions, and the padding rules of §5.2. */
class HuffmanTest {

    @Test
    void codeTableIsCanonicalAndComplete() {
        // Canonical: sorted by (length, symbol), each code is the previous one plus one, shifted to its length.
        Integer[] symbols = new Integer[HuffmanCode.EOS + 1];
        for (int i = 0; i < symbols.length; i++) {
            symbols[i] = i;
        }
        Arrays.sort(symbols, (a, b) -> HuffmanCode.LENGTHS[a] != HuffmanCode.LENGTHS[b]
                ? HuffmanCode.LENGTHS[a] - HuffmanCode.LENGTHS[b] : a - b);
        long expected = 0;
        int previousLength = HuffmanCode.LENGTHS[symbols[0]];
        BigInteger kraft = BigInteger.ZERO;
        for (int i = 0; i < symbols.length; i++) {
            int length = HuffmanCode.LENGTHS[symbols[i]];
            if (i > 0) {
                expected = (expected + 1) << (length - previousLength);
            }
            previousLength = length;
            assertThat(HuffmanCode.CODES[symbols[i]]).as("code of %d", symbols[i]).isEqualTo((int) expected);
            kraft = kraft.add(BigInteger.ONE.shiftLeft(30 - length));
        }
        // Complete: the sum of 2^-length over all codes is exactly 1.
        assertThat(kraft).isEqualTo(BigInteger.ONE.shiftLeft(30));
        assertThat(HuffmanCode.CODES[HuffmanCode.EOS]).isEqualTo(0x3fffffff);
        assertThat(HuffmanCode.LENGTHS[HuffmanCode.EOS]).isEqualTo((byte) 30);
    }

    @ParameterizedTest
    @CsvSource({
        "www.example.com, f1e3c2e5f23a6ba0ab90f4ff",
        "no-cache, a8eb10649cbf",
        "custom-key, 25a849e95ba97d7f",
        "custom-value, 25a849e95bb8e8b4bf",
        "302, 6402",
        "307, 640eff",
        "private, aec3771a4b",
        "'Mon, 21 Oct 2013 20:13:21 GMT', d07abe941054d444a8200595040b8166e082a62d1bff",
        "https://www.example.com, 9d29ad171863c78f0b97c8e9ae82ae43d3",
        "gzip, 9bd9ab",
        "'foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1', "
                + "94e7821dd7f2e6c7b335dfdfcd5b3960d5af27087f3672c1ab270fb5291f9587316065c003ed4ee5b1063d5007",
    })
    void codesTheStringsOfAppendixC(String text, String code) throws HpackException {
        assertThat(HexFormat.of().formatHex(encode(text))).isEqualTo(code);
        assertThat(decode(HexFormat.of().parseHex(code))).isEqualTo(text);
    }

    @Test
    void roundTripsEverySingleOctet() throws HpackException {
        for (int octet = 0; octet < 256; octet++) {
            String text = String.valueOf((char) octet);
            byte[] code = encode(text);
            assertThat(code).as("octet %d", octet).hasSize((HuffmanCode.LENGTHS[octet] + 7) / 8);
            assertThat(decode(code)).as("octet %d", octet).isEqualTo(text);
        }
    }

    @Test
    void roundTripsRandomStrings() throws HpackException {
        Random random = new Random(7541);
        for (int round = 0; round < 5_000; round++) {
            char[] chars = new char[random.nextInt(40)];
            for (int i = 0; i < chars.length; i++) {
                chars[i] = (char) (random.nextBoolean() ? 0x20 + random.nextInt(0x5f) : random.nextInt(256));
            }
            String text = new String(chars);
            byte[] code = encode(text);
            assertThat(code).hasSize((int) HuffmanEncoder.encodedLength(text));
            assertThat(decode(code)).isEqualTo(text);
        }
    }

    @Test
    void countsButDoesNotKeepOctetsBeyondTheLimit() throws HpackException {
        byte[] code = encode("www.example.com");
        byte[] out = new byte[3];

        long length = HuffmanDecoder.decode(ByteBuffer.wrap(code), code.length, out, 3);

        assertThat(length).isEqualTo(15);
        assertThat(new String(out, StandardCharsets.ISO_8859_1)).isEqualTo("www");
    }

    @Test
    void rejectsPaddingOfEightOnes() {
        // '0' is 00000: padded to 0x07, then a whole octet of ones.
        assertRejected("07ff", "padded");
        assertRejected("ff", "padded");
    }

    @Test
    void rejectsPaddingWithAZeroBit() throws HpackException {
        // 'a' is 00011 and its padding must be 111: 0x1f is right, 0x1e ends in a zero.
        assertThat(decode(HexFormat.of().parseHex("1f"))).isEqualTo("a");
        assertRejected("1e", "padded");
    }

    @Test
    void rejectsEosInsideAString() {
        // 30 ones (EOS), then 'a' (00011), then five ones of padding.
        assertRejected("fffffffc7f", "EOS");
        // EOS alone, padded with two ones.
        assertRejected("ffffffff", "EOS");
    }

    private static byte[] encode(String text) {
        byte[] out = new byte[(int) HuffmanEncoder.encodedLength(text)];
        assertThat(HuffmanEncoder.encode(text, out, 0)).isEqualTo(out.length);
        return out;
    }

    private static String decode(byte[] code) throws HpackException {
        byte[] out = new byte[code.length * 8 / 5];
        ByteBuffer in = ByteBuffer.wrap(code);
        int length = (int) HuffmanDecoder.decode(in, code.length, out, out.length);
        assertThat(in.hasRemaining()).isFalse();
        return new String(out, 0, length, StandardCharsets.ISO_8859_1);
    }

    private static void assertRejected(String hex, String message) {
        assertThatThrownBy(() -> decode(HexFormat.of().parseHex(hex))).isInstanceOf(HpackException.class)
                .hasMessageContaining(message);
    }
}
