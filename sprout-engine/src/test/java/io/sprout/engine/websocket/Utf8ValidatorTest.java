package io.sprout.engine.websocket;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** The streaming UTF-8 check, against the boundaries of RFC 3629 and against the JDK's strict decoder. */
class Utf8ValidatorTest {

    @ParameterizedTest
    @ValueSource(strings = {"", "41", "7f", "c280", "dfbf", "e0a080", "ed9fbf", "ee8080", "efbfbf", "f0908080",
            "f48fbfbf", "cebae1bdb9cf83cebcceb5"})
    void acceptsValidSequences(String hex) {
        assertThat(validEvenOneByteAtATime(HexFormat.of().parseHex(hex))).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"80", "bf", "c0af", "c1bf", "e08080", "e09fbf", "eda080", "edbfbf", "f08f8080",
            "f4908080", "f5808080", "fe", "ff", "c3", "e282", "f09f98", "c328"})
    void rejectsInvalidOrUnfinishedSequences(String hex) {
        assertThat(validEvenOneByteAtATime(HexFormat.of().parseHex(hex))).isFalse();
    }

    @Test
    void agreesWithTheJdksStrictDecoderOnRandomBytes() {
        Random random = new Random(42);
        for (int round = 0; round < 20_000; round++) {
            byte[] bytes = new byte[random.nextInt(8)];
            for (int i = 0; i < bytes.length; i++) {
                // Mostly bytes that start or continue multi-byte sequences, where the rules are.
                bytes[i] = (byte) (random.nextBoolean() ? 0x80 + random.nextInt(0x80) : random.nextInt(0x100));
            }
            assertThat(validEvenOneByteAtATime(bytes)).as(HexFormat.of().formatHex(bytes))
                    .isEqualTo(jdkAccepts(bytes));
        }
    }

    @Test
    void staysInvalidOnceInvalid() {
        Utf8Validator validator = new Utf8Validator();
        assertThat(validator.accept(ByteBuffer.wrap(new byte[] {(byte) 0xFF}))).isFalse();
        assertThat(validator.accept(ByteBuffer.wrap(new byte[] {'a'}))).isFalse();
        assertThat(validator.complete()).isFalse();
        validator.reset();
        assertThat(validator.accept(ByteBuffer.wrap(new byte[] {'a'}))).isTrue();
    }

    private static boolean validEvenOneByteAtATime(byte[] bytes) {
        Utf8Validator whole = new Utf8Validator();
        boolean wholeValid = whole.accept(ByteBuffer.wrap(bytes)) && whole.complete();
        Utf8Validator pieces = new Utf8Validator();
        boolean valid = true;
        for (int i = 0; i < bytes.length; i++) {
            valid &= pieces.accept(ByteBuffer.wrap(bytes, i, 1));
        }
        assertThat(valid && pieces.complete()).as("byte by byte agrees with whole").isEqualTo(wholeValid);
        return wholeValid;
    }

    private static boolean jdkAccepts(byte[] bytes) {
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes));
            return true;
        } catch (CharacterCodingException invalid) {
            return false;
        }
    }
}
