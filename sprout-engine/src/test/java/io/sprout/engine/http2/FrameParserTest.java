package io.sprout.engine.http2;

import static io.sprout.engine.http2.Frames.ascii;
import static io.sprout.engine.http2.Frames.int32;
import static io.sprout.engine.http2.Frames.int64;
import static io.sprout.engine.http2.Frames.join;
import static io.sprout.engine.http2.Frames.padded;
import static io.sprout.engine.http2.Frames.priority;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sprout.engine.http.Feedings;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Valid client frames through the parser, each input fed whole, one byte at a time, split in two at every index and
 * in a direct buffer: every feeding must give the same events.
 */
class FrameParserTest {

    private static List<String> events(byte[] bytes) {
        return Feedings.sameForEveryFeeding(bytes, Recorded.run());
    }

    private static Frames connection() {
        return new Frames().preface().settings();
    }

    @Test
    void readsThePrefaceAndTheFirstSettings() {
        byte[] bytes = new Frames().preface()
                .settings(Setting.HEADER_TABLE_SIZE, 4096, Setting.ENABLE_PUSH, 0, Setting.INITIAL_WINDOW_SIZE,
                        0x7FFF_FFFFL, Setting.MAX_FRAME_SIZE, 16_777_215, 0xFF, 0xFFFF_FFFFL)
                .frame(FrameType.SETTINGS, Flags.ACK, 0, new byte[0])
                .bytes();

        assertThat(events(bytes)).containsExactly(
                "settings:1=4096,2=0,4=2147483647,5=16777215,255=4294967295", "settingsAck");
    }

    @Test
    void deliversAnEmptySettingsFrameAtOnce() {
        assertThat(events(connection().bytes())).containsExactly("settings:");
    }

    @Test
    void readsAHeaderBlockOverHeadersAndContinuationsWithPaddingAndPriority() {
        byte[] bytes = connection()
                .frame(FrameType.HEADERS, Flags.PADDED | Flags.PRIORITY, 1,
                        padded(3, join(priority(true, 0, 255), ascii("first"))))
                .frame(FrameType.CONTINUATION, 0, 1, new byte[0])
                .frame(FrameType.CONTINUATION, Flags.END_HEADERS, 1, ascii("last"))
                .frame(FrameType.HEADERS, Flags.END_STREAM | Flags.END_HEADERS | Flags.PRIORITY, 3,
                        join(priority(false, 1, 15), ascii("x")))
                .frame(FrameType.HEADERS, Flags.END_HEADERS | Flags.PADDED, 5, padded(0, ascii("y")))
                .bytes();

        assertThat(events(bytes)).containsExactly("settings:",
                "headers:1", "block:1:first", "blockEnd:1",
                "continuation:1", "blockEnd:1",
                "continuation:1:endHeaders", "block:1:last", "blockEnd:1:endHeaders",
                "headers:3:endStream:endHeaders", "block:3:x", "blockEnd:3:endHeaders",
                "headers:5:endHeaders", "block:5:y", "blockEnd:5:endHeaders");
    }

    @Test
    void readsDataPaddedAndUnpaddedCountingPaddingForFlowControl() {
        byte[] bytes = connection()
                .frame(FrameType.DATA, 0, 1, ascii("hello"))
                .frame(FrameType.DATA, Flags.PADDED, 1, padded(4, ascii("world")))
                .frame(FrameType.DATA, Flags.PADDED, 1, padded(6, new byte[0]))
                .frame(FrameType.DATA, Flags.PADDED, 1, padded(0, ascii("!")))
                .frame(FrameType.DATA, Flags.END_STREAM, 1, new byte[0])
                .bytes();

        assertThat(events(bytes)).containsExactly("settings:",
                "dataStart:1:5", "data:1:hello", "dataEnd:1",
                "dataStart:1:10", "data:1:world", "dataEnd:1",
                "dataStart:1:7", "dataEnd:1",
                "dataStart:1:2", "data:1:!", "dataEnd:1",
                "dataStart:1:0:endStream", "dataEnd:1:endStream");
    }

    @Test
    void readsTheControlFrames() {
        byte[] bytes = connection()
                .frame(FrameType.PING, 0, 0, int64(0x0102_0304_0506_0708L))
                .frame(FrameType.PING, Flags.ACK, 0, int64(-1))
                .frame(FrameType.WINDOW_UPDATE, 0, 0, int32(0x7FFF_FFFF))
                .frame(FrameType.WINDOW_UPDATE, 0, 1, int32(0x8000_0001))
                .frame(FrameType.WINDOW_UPDATE, 0, 3, int32(0))
                .frame(FrameType.PRIORITY, 0, 3, priority(true, 1, 16))
                .frame(FrameType.RST_STREAM, 0, 1, int32(ErrorCode.CANCEL.code()))
                .frame(FrameType.RST_STREAM, 0, 3, int32(0xFFFF_FFFF))
                .frame(FrameType.GOAWAY, 0, 0, join(int32(0x8000_0007), int32(2), ascii("bye")))
                .frame(FrameType.GOAWAY, 0, 0, join(int32(0), int32(0)))
                .bytes();

        assertThat(events(bytes)).containsExactly("settings:",
                "ping:102030405060708", "ping:ack:ffffffffffffffff",
                "windowUpdate:0:2147483647", "windowUpdate:1:1", "windowUpdate:3:0",
                "priority:3", "rst:1:8", "rst:3:4294967295",
                "goAway:7:2:bye", "goAway:0:0:");
    }

    @Test
    void masksTheReservedBitOfTheStreamIdentifier() {
        byte[] bytes = connection().frame(FrameType.DATA, 0, 0x8000_0001, ascii("r")).bytes();

        assertThat(events(bytes)).containsExactly("settings:", "dataStart:1:1", "data:1:r", "dataEnd:1");
    }

    @Test
    void skipsUnknownFrameTypesAndIgnoresUnknownFlags() {
        byte[] bytes = connection()
                .frame(0xFA, 0xFF, 0, ascii("ignored"))
                .frame(0x0A, 0, 7, new byte[0])
                .frame(FrameType.DATA, 0xF6, 1, ascii("ok"))
                .frame(FrameType.PING, 0xFE, 0, int64(1))
                .bytes();

        assertThat(events(bytes)).containsExactly("settings:", "unknown:0xfa:0:7", "unknown:0xa:7:0",
                "dataStart:1:2", "data:1:ok", "dataEnd:1", "ping:1");
    }

    @Test
    void allowsAnUnknownFrameInsideNoHeaderBlockOnly() {
        byte[] bytes = connection()
                .frame(FrameType.HEADERS, 0, 1, ascii("a"))
                .frame(0xFA, 0, 1, new byte[0])
                .bytes();

        assertThat(events(bytes)).containsExactly("settings:", "headers:1", "block:1:a", "blockEnd:1",
                "connectionError:PROTOCOL_ERROR");
    }

    @Test
    void readsAMixedConversation() {
        byte[] bytes = connection()
                .frame(FrameType.SETTINGS, Flags.ACK, 0, new byte[0])
                .frame(FrameType.WINDOW_UPDATE, 0, 0, int32(1 << 20))
                .frame(FrameType.HEADERS, Flags.PADDED | Flags.PRIORITY, 1,
                        padded(2, join(priority(false, 0, 0), ascii(":method GET"))))
                .frame(FrameType.CONTINUATION, Flags.END_HEADERS, 1, ascii(" :path /"))
                .frame(FrameType.DATA, Flags.PADDED, 1, padded(1, ascii("body")))
                .frame(0x20, 0, 1, ascii("xyz"))
                .frame(FrameType.DATA, Flags.END_STREAM, 1, ascii("end"))
                .frame(FrameType.RST_STREAM, 0, 1, int32(0))
                .frame(FrameType.PING, 0, 0, int64(42))
                .frame(FrameType.GOAWAY, 0, 0, join(int32(1), int32(0), ascii("done")))
                .bytes();

        assertThat(events(bytes)).containsExactly("settings:", "settingsAck", "windowUpdate:0:1048576",
                "headers:1", "block:1::method GET", "blockEnd:1",
                "continuation:1:endHeaders", "block:1: :path /", "blockEnd:1:endHeaders",
                "dataStart:1:6", "data:1:body", "dataEnd:1",
                "unknown:0x20:1:3",
                "dataStart:1:3:endStream", "data:1:end", "dataEnd:1:endStream",
                "rst:1:0", "ping:2a", "goAway:1:0:done");
    }

    @Test
    void parsesWithoutAPrefaceWhenNoneIsExpected() {
        byte[] bytes = new Frames().frame(FrameType.PING, 0, 0, int64(5)).bytes();

        assertThat(Feedings.sameForEveryFeeding(bytes, Recorded.run(FrameParser.DEFAULT_MAX_FRAME_SIZE, false)))
                .containsExactly("ping:5");
    }

    @Test
    void keepsTheFirstKilobyteOfGoAwayDebugData() {
        byte[] debug = Frames.filled(3000, 'd');
        byte[] bytes = connection().frame(FrameType.GOAWAY, 0, 0, join(int32(3), int32(0), debug))
                .frame(FrameType.PING, 0, 0, int64(1)).bytes();

        assertThat(Recorded.run().apply(List.of(ByteBuffer.wrap(bytes))))
                .containsExactly("settings:", "goAway:3:0:" + "d".repeat(1024), "ping:1");
        assertThat(Recorded.run().apply(oneByteAtATime(bytes)))
                .containsExactly("settings:", "goAway:3:0:" + "d".repeat(1024), "ping:1");
    }

    @Test
    void passesAFrameOfTheMaximumSizeThroughABufferOfThatSize() {
        byte[] payload = Frames.filled(FrameParser.DEFAULT_MAX_FRAME_SIZE, 'b');
        byte[] bytes = connection()
                .frame(FrameType.DATA, 0, 1, payload)
                .frame(FrameType.HEADERS, Flags.END_HEADERS, 3, payload)
                .bytes();
        Recorded recorded = new Recorded();
        FrameParser parser = new FrameParser(FrameParser.DEFAULT_MAX_FRAME_SIZE, true, recorded);
        ByteBuffer buffer = ByteBuffer.allocate(FrameParser.DEFAULT_MAX_FRAME_SIZE);

        for (int at = 0; at < bytes.length; ) {
            int count = Math.min(buffer.remaining(), bytes.length - at);
            buffer.put(bytes, at, count).flip();
            at += count;
            parser.parse(buffer);
            buffer.compact();
        }

        assertThat(recorded.events).containsExactly("settings:",
                "dataStart:1:16384", "data:1:" + "b".repeat(16_384), "dataEnd:1",
                "headers:3:endHeaders", "block:3:" + "b".repeat(16_384), "blockEnd:3:endHeaders");
        assertThat(parser.midFrame()).isFalse();
    }

    @Test
    void acceptsFramesUpToALargerConfiguredMaximum() {
        byte[] bytes = connection().frame(FrameType.DATA, 0, 1, Frames.filled(20_000, 'z')).bytes();

        assertThat(Recorded.run(20_000, true).apply(List.of(ByteBuffer.wrap(bytes))))
                .containsExactly("settings:", "dataStart:1:20000", "data:1:" + "z".repeat(20_000), "dataEnd:1");
        assertThat(Recorded.run().apply(List.of(ByteBuffer.wrap(bytes))))
                .containsExactly("settings:", "connectionError:FRAME_SIZE_ERROR");
    }

    @Test
    void tellsWhetherItIsInTheMiddleOfAFrame() {
        byte[] bytes = connection().frame(FrameType.PING, 0, 0, int64(1)).bytes();
        FrameParser parser = new FrameParser(FrameParser.DEFAULT_MAX_FRAME_SIZE, true, new Recorded());
        List<Boolean> midFrame = new ArrayList<>();
        midFrame.add(parser.midFrame());
        for (byte b : bytes) {
            parser.parse(ByteBuffer.wrap(new byte[] {b}));
            midFrame.add(parser.midFrame());
        }

        int afterPreface = Frames.PREFACE.length();
        int afterSettings = afterPreface + 9;
        for (int i = 0; i < midFrame.size(); i++) {
            boolean between = i == 0 || i == afterPreface || i == afterSettings || i == bytes.length;
            assertThat(midFrame.get(i)).as("after %d bytes", i).isEqualTo(!between);
        }
    }

    @Test
    void leavesTheCallersBytesUnchangedAndItsPositionAtTheLimit() {
        byte[] bytes = connection().frame(FrameType.DATA, Flags.PADDED, 1, padded(2, ascii("abc"))).bytes();
        byte[] copy = bytes.clone();
        ByteBuffer in = ByteBuffer.wrap(bytes).asReadOnlyBuffer();

        new FrameParser(FrameParser.DEFAULT_MAX_FRAME_SIZE, true, new Recorded()).parse(in);

        assertThat(in.hasRemaining()).isFalse();
        assertThat(bytes).isEqualTo(copy);
    }

    @Test
    void rejectsAMaximumFrameSizeOutsideTheSettingsBounds() {
        assertThrows(IllegalArgumentException.class, () -> new FrameParser(16_383, true, new Recorded()));
        assertThrows(IllegalArgumentException.class, () -> new FrameParser(1 << 24, true, new Recorded()));
    }

    static List<ByteBuffer> oneByteAtATime(byte[] bytes) {
        List<ByteBuffer> pieces = new ArrayList<>();
        for (int i = 0; i < bytes.length; i++) {
            pieces.add(ByteBuffer.wrap(bytes, i, 1));
        }
        return pieces;
    }
}
