package io.sprout.engine.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class ChunkHeaderTest {

    @ParameterizedTest
    @CsvSource({"0, 0", "1, 1", "10, a", "15, f", "16, 10", "255, ff", "4096, 1000", "65535, ffff",
        "2147483647, 7fffffff", "-1, ffffffff"})
    void writesTheSizeInLowerCaseHexEndingJustBeforeTheGivenIndex(int size, String hex) {
        byte[] dst = new byte[20];
        java.util.Arrays.fill(dst, (byte) '#');

        int start = ChunkHeader.writeBefore(dst, 15, size);

        assertThat(new String(dst, start, 15 - start, StandardCharsets.US_ASCII)).isEqualTo(hex + "\r\n");
        assertThat(dst[start - 1]).isEqualTo((byte) '#');
        assertThat(dst[15]).isEqualTo((byte) '#');
    }

    @Test
    void fitsTheLargestSizeInMaxLength() {
        byte[] dst = new byte[ChunkHeader.MAX_LENGTH];

        assertThat(ChunkHeader.writeBefore(dst, dst.length, -1)).isZero();
    }

    @Test
    void endsABodyWithTheLastChunkAndAnEmptyTrailerSection() {
        assertThat(new String(ChunkHeader.LAST_CHUNK, StandardCharsets.US_ASCII)).isEqualTo("0\r\n\r\n");
    }
}
