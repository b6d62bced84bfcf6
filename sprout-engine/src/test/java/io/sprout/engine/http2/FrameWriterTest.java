package io.sprout.engine.http2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sprout.engine.http.Feedings;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the writer encodes, checked byte for byte where the layout matters and parsed back by the parser. */
class FrameWriterTest {

    private static final HexFormat HEX = HexFormat.of();

    private static byte[] bytes(ByteBuffer frame) {
        assertThat(frame.position()).as("ready to write").isZero();
        assertThat(frame.hasArray()).as("a heap buffer").isTrue();
        assertThat(frame.capacity()).as("of the exact size").isEqualTo(frame.remaining());
        byte[] bytes = new byte[frame.remaining()];
        frame.duplicate().get(bytes);
        return bytes;
    }

    /** The frames parsed after the client preface, fed in every way. */
    private static List<String> parsed(ByteBuffer... frames) {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        all.writeBytes(Frames.ascii(Frames.PREFACE));
        for (ByteBuffer frame : frames) {
            all.writeBytes(bytes(frame));
        }
        return Feedings.sameForEveryFeeding(all.toByteArray(), Recorded.run());
    }

    @Test
    void writesAFrameHeaderAtAnOffset() {
        byte[] array = new byte[12];

        FrameWriter.header(array, 2, 0x01_0203, FrameType.HEADERS, Flags.END_HEADERS | Flags.END_STREAM,
                0x7FFF_FFFF);

        assertThat(HEX.formatHex(array)).isEqualTo("0000" + "010203" + "01" + "05" + "7fffffff" + "00");
    }

    @Test
    void rejectsAHeaderThatCannotBeEncoded() {
        byte[] array = new byte[9];
        assertThrows(IllegalArgumentException.class, () -> FrameWriter.header(array, 0, 1 << 24, 0, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> FrameWriter.header(array, 0, -1, 0, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> FrameWriter.header(array, 0, 0, 0, 0, -1));
    }

    @Test
    void writesSettingsTheParserReadsBack() {
        ByteBuffer settings = FrameWriter.settings(
                new int[] {Setting.MAX_CONCURRENT_STREAMS, Setting.INITIAL_WINDOW_SIZE, Setting.MAX_HEADER_LIST_SIZE},
                new long[] {100, 0x7FFF_FFFF, 0xFFFF_FFFFL});

        assertThat(HEX.formatHex(bytes(settings.duplicate()))).isEqualTo("000012" + "04" + "00" + "00000000"
                + "0003" + "00000064" + "0004" + "7fffffff" + "0006" + "ffffffff");
        assertThat(parsed(settings, FrameWriter.settingsAck(), FrameWriter.settings(new int[0], new long[0])))
                .containsExactly("settings:3=100,4=2147483647,6=4294967295", "settingsAck", "settings:");
    }

    @Test
    void rejectsSettingsWithoutAValueForEachId() {
        assertThrows(IllegalArgumentException.class, () -> FrameWriter.settings(new int[] {1}, new long[0]));
    }

    @Test
    void writesControlFramesTheParserReadsBack() {
        List<String> events = parsed(FrameWriter.settings(new int[0], new long[0]),
                FrameWriter.ping(false, 0x1122_3344_5566_7788L),
                FrameWriter.ping(true, -2),
                FrameWriter.rstStream(3, ErrorCode.REFUSED_STREAM),
                FrameWriter.windowUpdate(0, 0x7FFF_FFFF),
                FrameWriter.windowUpdate(5, 1),
                FrameWriter.goAway(7, ErrorCode.ENHANCE_YOUR_CALM, "calm down"),
                FrameWriter.goAway(0, ErrorCode.NO_ERROR, null));

        assertThat(events).containsExactly("settings:", "ping:1122334455667788", "ping:ack:fffffffffffffffe",
                "rst:3:7", "windowUpdate:0:2147483647", "windowUpdate:5:1", "goAway:7:11:calm down", "goAway:0:0:");
    }

    @Test
    void writesHeadersAndDataFramesFromAHeaderAndAPayload() {
        byte[] block = Frames.ascii("block");
        byte[] frames = new byte[2 * FrameWriter.HEADER_LENGTH + 2 * block.length];
        FrameWriter.header(frames, 0, block.length, FrameType.HEADERS, Flags.END_HEADERS, 1);
        System.arraycopy(block, 0, frames, FrameWriter.HEADER_LENGTH, block.length);
        int data = FrameWriter.HEADER_LENGTH + block.length;
        FrameWriter.header(frames, data, block.length, FrameType.DATA, Flags.END_STREAM, 1);
        System.arraycopy(block, 0, frames, data + FrameWriter.HEADER_LENGTH, block.length);

        assertThat(parsed(FrameWriter.settings(new int[0], new long[0]), ByteBuffer.wrap(frames)))
                .containsExactly("settings:", "headers:1:endHeaders", "block:1:block", "blockEnd:1:endHeaders",
                        "dataStart:1:5:endStream", "data:1:block", "dataEnd:1:endStream");
    }

    @Test
    void cutsGoAwayDebugDataToFitTheSmallestMaximumFrameSize() {
        ByteBuffer goAway = FrameWriter.goAway(1, ErrorCode.PROTOCOL_ERROR, "x".repeat(20_000));

        assertThat(goAway.remaining()).isEqualTo(FrameWriter.HEADER_LENGTH + FrameParser.DEFAULT_MAX_FRAME_SIZE);
        List<String> events = Recorded.run(FrameParser.DEFAULT_MAX_FRAME_SIZE, false).apply(List.of(goAway));
        assertThat(events).containsExactly("goAway:1:1:" + "x".repeat(1024));
    }

    @Test
    void writesDebugDataAsUtf8() {
        byte[] frame = bytes(FrameWriter.goAway(0, ErrorCode.NO_ERROR, "é"));

        assertThat(HEX.formatHex(frame)).isEqualTo("00000a" + "07" + "00" + "00000000" + "00000000" + "00000000"
                + "c3a9");
    }

    @Test
    void rejectsAWindowIncrementOfZero() {
        assertThrows(IllegalArgumentException.class, () -> FrameWriter.windowUpdate(1, 0));
        assertThrows(IllegalArgumentException.class, () -> FrameWriter.windowUpdate(1, -1));
    }
}
