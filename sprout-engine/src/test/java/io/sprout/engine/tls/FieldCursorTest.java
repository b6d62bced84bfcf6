package io.sprout.engine.tls;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class FieldCursorTest {

    private static final ByteBuffer BYTES = ByteBuffer.wrap(new byte[] {9, 1, (byte) 0xAB, (byte) 0xCD, 0x7F, 9});

    @Test
    void readsBigEndianFieldsInsideItsRange() {
        FieldCursor cursor = new FieldCursor(BYTES, 1, 5);

        assertThat(cursor.uint8()).isEqualTo(1);
        assertThat(cursor.uint16()).isEqualTo(0xABCD);
        assertThat(cursor.atEnd()).isFalse();
        assertThat(cursor.uint8()).isEqualTo(0x7F);
        assertThat(cursor.atEnd()).isTrue();
        assertThat(cursor.failed()).isFalse();
        assertThat(cursor.position()).isEqualTo(5);
    }

    @Test
    void aReadPastTheEndFailsAndReadsZerosFromThenOn() {
        FieldCursor cursor = new FieldCursor(BYTES, 1, 3);

        assertThat(cursor.uint8()).isEqualTo(1);
        assertThat(cursor.uint16()).isZero();
        assertThat(cursor.failed()).isTrue();
        assertThat(cursor.uint8()).isZero();
        assertThat(cursor.atEnd()).isTrue();
    }

    @Test
    void aSkipPastTheEndFailsWithoutMoving() {
        FieldCursor cursor = new FieldCursor(BYTES, 0, 6);

        assertThat(cursor.skip(6)).isTrue();
        assertThat(cursor.skip(1)).isFalse();
        assertThat(cursor.failed()).isTrue();
        assertThat(cursor.position()).isEqualTo(6);
    }
}
