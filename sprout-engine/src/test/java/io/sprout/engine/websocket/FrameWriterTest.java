package io.sprout.engine.websocket;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** Server frame headers byte for byte, and Close payloads. */
class FrameWriterTest {

    private static String header(boolean fin, boolean compressed, Opcode opcode, long length) {
        ByteBuffer target = ByteBuffer.allocate(FrameWriter.MAX_HEADER_LENGTH);
        FrameWriter.writeHeader(target, fin, compressed, opcode, length);
        assertThat(target.position()).isEqualTo(FrameWriter.headerLength(length));
        return HexFormat.of().formatHex(target.array(), 0, target.position());
    }

    @Test
    void usesTheShortestLengthEncoding() {
        assertThat(header(true, false, Opcode.TEXT, 0)).isEqualTo("8100");
        assertThat(header(true, false, Opcode.TEXT, 125)).isEqualTo("817d");
        assertThat(header(true, false, Opcode.BINARY, 126)).isEqualTo("827e007e");
        assertThat(header(true, false, Opcode.BINARY, 65_535)).isEqualTo("827effff");
        assertThat(header(true, false, Opcode.BINARY, 65_536)).isEqualTo("827f0000000000010000");
    }

    @Test
    void setsFinAndRsv1() {
        assertThat(header(false, true, Opcode.TEXT, 3)).isEqualTo("4103");
        assertThat(header(true, false, Opcode.CONTINUATION, 3)).isEqualTo("8003");
        assertThat(header(true, false, Opcode.CLOSE, 2)).isEqualTo("8802");
    }

    @Test
    void refusesControlFramesThatBreakTheRules() {
        ByteBuffer target = ByteBuffer.allocate(FrameWriter.MAX_HEADER_LENGTH);
        assertThatIllegalArgumentException().isThrownBy(() -> FrameWriter.writeHeader(target, true, false,
                Opcode.PING, 126));
        assertThatIllegalArgumentException().isThrownBy(() -> FrameWriter.writeHeader(target, false, false,
                Opcode.PONG, 1));
        assertThatIllegalArgumentException().isThrownBy(() -> FrameWriter.writeHeader(target, true, true,
                Opcode.CLOSE, 2));
    }

    @Test
    void cutsALongCloseReasonAtACharacterBoundary() {
        byte[] payload = FrameWriter.closePayload(CloseCodes.GOING_AWAY, "é".repeat(100));
        assertThat(payload.length).isLessThanOrEqualTo(125);
        assertThat(ByteBuffer.wrap(payload).getShort()).isEqualTo((short) 1001);
        String reason = new String(payload, 2, payload.length - 2, StandardCharsets.UTF_8);
        assertThat(reason).isEqualTo("é".repeat(61));
    }

    @Test
    void writesNoPayloadForNoStatusAndRefusesCodesThatMayNotBeSent() {
        assertThat(FrameWriter.closePayload(CloseCodes.NO_STATUS, "ignored")).isEmpty();
        assertThat(FrameWriter.closePayload(CloseCodes.NORMAL, null)).containsExactly(0x03, 0xE8);
        assertThatIllegalArgumentException().isThrownBy(() -> FrameWriter.closePayload(CloseCodes.ABNORMAL, ""));
        assertThatIllegalArgumentException().isThrownBy(() -> FrameWriter.closePayload(2000, ""));
    }
}
