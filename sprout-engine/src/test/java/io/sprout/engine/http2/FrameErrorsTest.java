package io.sprout.engine.http2;

import static io.sprout.engine.http2.ErrorCode.FLOW_CONTROL_ERROR;
import static io.sprout.engine.http2.ErrorCode.FRAME_SIZE_ERROR;
import static io.sprout.engine.http2.ErrorCode.PROTOCOL_ERROR;
import static io.sprout.engine.http2.Frames.ascii;
import static io.sprout.engine.http2.Frames.int32;
import static io.sprout.engine.http2.Frames.int64;
import static io.sprout.engine.http2.Frames.join;
import static io.sprout.engine.http2.Frames.padded;
import static io.sprout.engine.http2.Frames.priority;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sprout.engine.http.Feedings;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Frames that break RFC 9113 §4–§6, each fed in every way: a connection error ends the events as
 * {@code connectionError:<code>} (thrown, the parser dead), a stream error is reported as
 * {@code streamError:<stream>:<code>} and the parser carries on.
 */
class FrameErrorsTest {

    private static final byte[] EMPTY = {};

    /** The events after the preface and an empty SETTINGS frame, which come first. */
    private static List<String> events(Frames frames) {
        List<String> events = Feedings.sameForEveryFeeding(
                join(new Frames().preface().settings().bytes(), frames.bytes()), Recorded.run());
        assertThat(events.getFirst()).isEqualTo("settings:");
        return events.subList(1, events.size());
    }

    private static void assertConnectionError(Frames frames, ErrorCode code) {
        assertThat(events(frames)).containsExactly("connectionError:" + code);
    }

    @Test
    void failsAFrameLargerThanTheMaximumWithFrameSizeError() {
        // The header is enough: the error comes before any of the payload.
        assertConnectionError(new Frames().frame(16_385, FrameType.DATA, 0, 1, EMPTY), FRAME_SIZE_ERROR);
        assertConnectionError(new Frames().frame(16_385, FrameType.HEADERS, Flags.END_HEADERS, 1, EMPTY),
                FRAME_SIZE_ERROR);
        assertConnectionError(new Frames().frame(0xFF_FFFF, 0xFA, 0, 0, EMPTY), FRAME_SIZE_ERROR);
    }

    @ParameterizedTest
    @ValueSource(ints = {FrameType.DATA, FrameType.HEADERS, FrameType.PRIORITY, FrameType.RST_STREAM,
            FrameType.CONTINUATION})
    void failsAStreamFrameOnStreamZero(int type) {
        byte[] payload = type == FrameType.PRIORITY ? priority(false, 1, 0) : type == FrameType.RST_STREAM
                ? int32(0) : ascii("x");
        assertConnectionError(new Frames().frame(type, Flags.END_HEADERS, 0, payload), PROTOCOL_ERROR);
    }

    @Test
    void failsAContinuationOnStreamZeroWithinABlock() {
        Frames frames = new Frames().frame(FrameType.HEADERS, 0, 1, ascii("a"))
                .frame(FrameType.CONTINUATION, Flags.END_HEADERS, 0, ascii("b"));
        assertThat(events(frames)).containsExactly("headers:1", "block:1:a", "blockEnd:1",
                "connectionError:PROTOCOL_ERROR");
    }

    @Test
    void failsAConnectionFrameOnAStream() {
        assertConnectionError(new Frames().frame(FrameType.SETTINGS, 0, 1, EMPTY), PROTOCOL_ERROR);
        assertConnectionError(new Frames().frame(FrameType.SETTINGS, Flags.ACK, 1, EMPTY), PROTOCOL_ERROR);
        assertConnectionError(new Frames().frame(FrameType.PING, 0, 1, int64(0)), PROTOCOL_ERROR);
        assertConnectionError(new Frames().frame(FrameType.GOAWAY, 0, 3, join(int32(0), int32(0))), PROTOCOL_ERROR);
    }

    @Test
    void failsPaddingLongerThanThePayloadWithProtocolError() {
        assertConnectionError(new Frames().frame(FrameType.DATA, Flags.PADDED, 1, new byte[] {5, 0, 0, 0, 0}),
                PROTOCOL_ERROR);
        assertConnectionError(new Frames().frame(FrameType.DATA, Flags.PADDED, 1, new byte[] {1}), PROTOCOL_ERROR);
        assertConnectionError(new Frames().frame(FrameType.HEADERS, Flags.PADDED | Flags.END_HEADERS, 1,
                new byte[] {(byte) 255, 'a'}), PROTOCOL_ERROR);
        // The priority fields take 5 of the 7 bytes after the pad length: 2 bytes of padding do not fit.
        assertConnectionError(new Frames().frame(FrameType.HEADERS, Flags.PADDED | Flags.PRIORITY
                | Flags.END_HEADERS, 1, join(new byte[] {2}, priority(false, 0, 0), ascii("#"))), PROTOCOL_ERROR);
    }

    @Test
    void acceptsPaddingThatFillsThePayloadExactly() {
        Frames frames = new Frames().frame(FrameType.HEADERS, Flags.PADDED | Flags.PRIORITY | Flags.END_HEADERS, 1,
                join(new byte[] {1}, priority(false, 0, 0), ascii("#")));
        assertThat(events(frames)).containsExactly("headers:1:endHeaders", "blockEnd:1:endHeaders");
    }

    @Test
    void failsAFrameTooShortForItsPaddingOrPriorityFlagsWithFrameSizeError() {
        assertConnectionError(new Frames().frame(FrameType.DATA, Flags.PADDED, 1, EMPTY), FRAME_SIZE_ERROR);
        assertConnectionError(new Frames().frame(FrameType.HEADERS, Flags.PADDED | Flags.END_HEADERS, 1, EMPTY),
                FRAME_SIZE_ERROR);
        assertConnectionError(new Frames().frame(FrameType.HEADERS, Flags.PRIORITY | Flags.END_HEADERS, 1,
                new byte[4]), FRAME_SIZE_ERROR);
        assertConnectionError(new Frames().frame(FrameType.HEADERS, Flags.PADDED | Flags.PRIORITY
                | Flags.END_HEADERS, 1, new byte[5]), FRAME_SIZE_ERROR);
    }

    @Test
    void reportsHeadersDependingOnThemselvesAsAStreamErrorBeforeTheBlockAndCarriesOn() {
        Frames frames = new Frames()
                .frame(FrameType.HEADERS, Flags.PRIORITY, 3, join(priority(true, 3, 0), ascii("hp")))
                .frame(FrameType.CONTINUATION, Flags.END_HEADERS, 3, ascii("ack"))
                .frame(FrameType.PING, 0, 0, int64(9));
        assertThat(events(frames)).containsExactly("streamError:3:PROTOCOL_ERROR",
                "headers:3", "block:3:hp", "blockEnd:3",
                "continuation:3:endHeaders", "block:3:ack", "blockEnd:3:endHeaders", "ping:9");
    }

    @Test
    void reportsAPriorityFrameOfTheWrongLengthAsAStreamErrorAfterSkippingIt() {
        Frames frames = new Frames()
                .frame(FrameType.PRIORITY, 0, 1, new byte[4])
                .frame(FrameType.PRIORITY, 0, 3, new byte[6])
                .frame(FrameType.PRIORITY, 0, 5, EMPTY)
                .frame(FrameType.PING, 0, 0, int64(1));
        assertThat(events(frames)).containsExactly("streamError:1:FRAME_SIZE_ERROR",
                "streamError:3:FRAME_SIZE_ERROR", "streamError:5:FRAME_SIZE_ERROR", "ping:1");
    }

    @Test
    void reportsAPriorityFrameDependingOnItselfAsAStreamError() {
        Frames frames = new Frames()
                .frame(FrameType.PRIORITY, 0, 7, priority(false, 7, 1))
                .frame(FrameType.PRIORITY, 0, 7, priority(false, 0x8000_0007, 1))
                .frame(FrameType.PRIORITY, 0, 7, priority(false, 5, 1));
        assertThat(events(frames)).containsExactly("streamError:7:PROTOCOL_ERROR",
                "streamError:7:PROTOCOL_ERROR", "priority:7");
    }

    @Test
    void failsControlFramesOfTheWrongLengthWithFrameSizeError() {
        assertConnectionError(new Frames().frame(FrameType.RST_STREAM, 0, 1, new byte[3]), FRAME_SIZE_ERROR);
        assertConnectionError(new Frames().frame(FrameType.RST_STREAM, 0, 1, new byte[5]), FRAME_SIZE_ERROR);
        assertConnectionError(new Frames().frame(FrameType.PING, 0, 0, new byte[7]), FRAME_SIZE_ERROR);
        assertConnectionError(new Frames().frame(FrameType.PING, Flags.ACK, 0, new byte[9]), FRAME_SIZE_ERROR);
        assertConnectionError(new Frames().frame(FrameType.SETTINGS, 0, 0, new byte[5]), FRAME_SIZE_ERROR);
        assertConnectionError(new Frames().frame(FrameType.SETTINGS, 0, 0, new byte[13]), FRAME_SIZE_ERROR);
        assertConnectionError(new Frames().frame(FrameType.SETTINGS, Flags.ACK, 0, new byte[6]), FRAME_SIZE_ERROR);
        assertConnectionError(new Frames().frame(FrameType.WINDOW_UPDATE, 0, 0, new byte[3]), FRAME_SIZE_ERROR);
        assertConnectionError(new Frames().frame(FrameType.WINDOW_UPDATE, 0, 1, new byte[5]), FRAME_SIZE_ERROR);
        assertConnectionError(new Frames().frame(FrameType.GOAWAY, 0, 0, new byte[7]), FRAME_SIZE_ERROR);
    }

    @Test
    void failsAPushPromiseFromTheClient() {
        assertConnectionError(new Frames().frame(FrameType.PUSH_PROMISE, Flags.END_HEADERS, 1,
                join(int32(2), ascii("h"))), PROTOCOL_ERROR);
    }

    @Test
    void failsAnyFrameThatInterruptsAHeaderBlock() {
        List<Frames> interruptions = List.of(
                new Frames().frame(FrameType.DATA, 0, 1, ascii("d")),
                new Frames().frame(FrameType.HEADERS, Flags.END_HEADERS, 1, ascii("h")),
                new Frames().frame(FrameType.CONTINUATION, Flags.END_HEADERS, 3, ascii("c")),
                new Frames().frame(FrameType.PING, 0, 0, int64(0)),
                new Frames().frame(FrameType.SETTINGS, 0, 0, EMPTY),
                new Frames().frame(FrameType.PRIORITY, 0, 1, priority(false, 0, 0)),
                new Frames().frame(FrameType.RST_STREAM, 0, 1, int32(0)),
                new Frames().frame(FrameType.WINDOW_UPDATE, 0, 0, int32(1)));
        for (Frames interruption : interruptions) {
            Frames frames = new Frames().frame(FrameType.HEADERS, Flags.END_STREAM, 1, ascii("a"))
                    .raw(interruption.bytes());
            assertThat(events(frames)).containsExactly("headers:1:endStream", "block:1:a", "blockEnd:1",
                    "connectionError:PROTOCOL_ERROR");
        }
    }

    @Test
    void failsAContinuationWithoutAnOpenHeaderBlock() {
        assertConnectionError(new Frames().frame(FrameType.CONTINUATION, Flags.END_HEADERS, 1, ascii("c")),
                PROTOCOL_ERROR);
        Frames afterEnd = new Frames().frame(FrameType.HEADERS, Flags.END_HEADERS, 1, ascii("a"))
                .frame(FrameType.CONTINUATION, Flags.END_HEADERS, 1, ascii("c"));
        assertThat(events(afterEnd)).containsExactly("headers:1:endHeaders", "block:1:a", "blockEnd:1:endHeaders",
                "connectionError:PROTOCOL_ERROR");
    }

    @Test
    void failsInvalidSettingValuesAndAcceptsTheBoundaries() {
        assertConnectionError(new Frames().settings(Setting.ENABLE_PUSH, 2), PROTOCOL_ERROR);
        assertConnectionError(new Frames().settings(Setting.INITIAL_WINDOW_SIZE, 0x8000_0000L), FLOW_CONTROL_ERROR);
        assertConnectionError(new Frames().settings(Setting.MAX_FRAME_SIZE, 16_383), PROTOCOL_ERROR);
        assertConnectionError(new Frames().settings(Setting.MAX_FRAME_SIZE, 1 << 24), PROTOCOL_ERROR);
        assertConnectionError(new Frames().settings(Setting.NO_RFC7540_PRIORITIES, 2), PROTOCOL_ERROR);
        // A bad value fails even after good ones in the same frame, which the listener then never sees.
        assertConnectionError(new Frames().settings(Setting.HEADER_TABLE_SIZE, 0, Setting.ENABLE_PUSH, 0xFFFF_FFFFL),
                PROTOCOL_ERROR);

        assertThat(events(new Frames().settings(Setting.ENABLE_PUSH, 1, Setting.NO_RFC7540_PRIORITIES, 1,
                Setting.INITIAL_WINDOW_SIZE, 0x7FFF_FFFF, Setting.MAX_FRAME_SIZE, 16_384,
                Setting.MAX_CONCURRENT_STREAMS, 0xFFFF_FFFFL, Setting.MAX_HEADER_LIST_SIZE, 0, 0, 1)))
                .containsExactly("settings:2=1,9=1,4=2147483647,5=16384,3=4294967295,6=0,0=1");
    }

    @Test
    void failsADifferentPrefaceAtItsFirstWrongByte() {
        byte[] http11 = ascii("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
        assertThat(Feedings.sameForEveryFeeding(http11, Recorded.run()))
                .containsExactly("connectionError:PROTOCOL_ERROR");

        byte[] almost = ascii(Frames.PREFACE.replace("SM", "SN"));
        FrameParser parser = new FrameParser(FrameParser.DEFAULT_MAX_FRAME_SIZE, true, new Recorded());
        parser.parse(ByteBuffer.wrap(almost, 0, 19));
        ByteBuffer rest = ByteBuffer.wrap(almost, 19, almost.length - 19);
        Http2Exception error = assertThrows(Http2Exception.class, () -> parser.parse(rest));
        assertThat(error.code()).isEqualTo(PROTOCOL_ERROR);
        assertThat(rest.position()).as("stopped after the byte that differs").isEqualTo(20);
    }

    @Test
    void failsAFirstFrameOtherThanSettings() {
        List<byte[]> firsts = List.of(
                new Frames().frame(FrameType.PING, 0, 0, int64(0)).bytes(),
                new Frames().frame(FrameType.SETTINGS, Flags.ACK, 0, EMPTY).bytes(),
                new Frames().frame(FrameType.HEADERS, Flags.END_HEADERS, 1, ascii("h")).bytes(),
                new Frames().frame(0xFA, 0, 0, EMPTY).bytes());
        for (byte[] first : firsts) {
            byte[] bytes = join(new Frames().preface().bytes(), first);
            assertThat(Feedings.sameForEveryFeeding(bytes, Recorded.run()))
                    .containsExactly("connectionError:PROTOCOL_ERROR");
        }
    }

    @Test
    void staysDeadAfterAConnectionErrorThrowingTheSameError() {
        FrameParser parser = new FrameParser(FrameParser.DEFAULT_MAX_FRAME_SIZE, false, new Recorded());
        Http2Exception first = assertThrows(Http2Exception.class, () -> parser.parse(ByteBuffer.wrap(
                new Frames().frame(FrameType.PING, 0, 1, int64(0)).bytes())));
        ByteBuffer valid = ByteBuffer.wrap(new Frames().frame(FrameType.PING, 0, 0, int64(0)).bytes());

        Http2Exception again = assertThrows(Http2Exception.class, () -> parser.parse(valid));

        assertSame(first, again);
        assertThat(first.isConnectionError()).isTrue();
        assertThat(first.streamId()).isZero();
        assertThat(valid.position()).isZero();
    }

    @Test
    void staysDeadAfterTheListenerThrows() {
        IllegalStateException boom = new IllegalStateException("the session failed");
        FrameListener throwing = (FrameListener) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {FrameListener.class}, (proxy, method, arguments) -> {
                    throw boom;
                });
        FrameParser parser = new FrameParser(FrameParser.DEFAULT_MAX_FRAME_SIZE, false, throwing);
        byte[] ping = new Frames().frame(FrameType.PING, 0, 0, int64(0)).bytes();
        assertSame(boom, assertThrows(IllegalStateException.class, () -> parser.parse(ByteBuffer.wrap(ping))));

        IllegalStateException later = assertThrows(IllegalStateException.class,
                () -> parser.parse(ByteBuffer.wrap(ping)));

        assertThat(later.getCause()).isSameAs(boom);
    }

    @Test
    void makesStreamAndConnectionErrors() {
        Http2Exception stream = Http2Exception.stream(5, ErrorCode.CANCEL, "gone");
        Http2Exception connection = Http2Exception.connection(ErrorCode.ENHANCE_YOUR_CALM, "too many");

        assertThat(stream.isConnectionError()).isFalse();
        assertThat(stream.streamId()).isEqualTo(5);
        assertThat(stream.code()).isEqualTo(ErrorCode.CANCEL);
        assertThat(stream.getMessage()).isEqualTo("gone");
        assertThat(connection.isConnectionError()).isTrue();
        assertThat(connection.toString()).isEqualTo("connection error ENHANCE_YOUR_CALM: too many");
        assertThrows(IllegalArgumentException.class, () -> Http2Exception.stream(0, ErrorCode.CANCEL, "no stream"));
    }

    @Test
    void mapsErrorCodesBothWaysAndUnknownCodesToNull() {
        for (ErrorCode code : ErrorCode.values()) {
            assertThat(ErrorCode.of(code.code())).isSameAs(code);
        }
        assertThat(ErrorCode.HTTP_1_1_REQUIRED.code()).isEqualTo(0xd);
        assertThat(ErrorCode.of(0xe)).isNull();
        assertThat(ErrorCode.of(-1)).isNull();
    }
}
