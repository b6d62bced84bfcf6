package io.sprout.engine.http2;

import static io.sprout.engine.http2.Frames.ascii;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** Telling the client preface from HTTP/1.1 on a plaintext port, with as many bytes as have arrived. */
class PrefaceTest {

    private static int match(String buffered) {
        return FrameParser.prefaceMatch(ByteBuffer.wrap(ascii(buffered)));
    }

    @Test
    void isUndecidedOnEveryProperPrefixOfThePreface() {
        for (int length = 0; length < Frames.PREFACE.length(); length++) {
            assertThat(match(Frames.PREFACE.substring(0, length))).as("first %d bytes", length).isZero();
        }
    }

    @Test
    void findsTheWholePrefaceAloneOrFollowedByFrames() {
        assertThat(match(Frames.PREFACE)).isEqualTo(1);
        assertThat(match(Frames.PREFACE + "\0\0\0\4\0\0\0\0\0")).isEqualTo(1);
    }

    @Test
    void rejectsHttp11AtTheFirstByteThatDiffers() {
        assertThat(match("GET / HTTP/1.1\r\n")).isEqualTo(-1);
        assertThat(match("P")).isZero();
        assertThat(match("POST / HTTP/1.1\r\n")).isEqualTo(-1);
        assertThat(match("PRI * HTTP/1.1\r\n")).isEqualTo(-1);
        assertThat(match("PRI * HTTP/2.0\r\n\r\nSM\r\n\n")).isEqualTo(-1);
        assertThat(match("pri")).isEqualTo(-1);
    }

    @Test
    void readsFromThePositionAndMovesNothing() {
        ByteBuffer buffered = ByteBuffer.wrap(ascii("xx" + Frames.PREFACE + "yy"), 2, Frames.PREFACE.length());
        ByteBuffer sliced = ByteBuffer.wrap(ascii("xx" + Frames.PREFACE)).slice(2, 10);

        assertThat(FrameParser.prefaceMatch(buffered)).isEqualTo(1);
        assertThat(FrameParser.prefaceMatch(sliced)).isZero();
        assertThat(FrameParser.prefaceMatch(ByteBuffer.allocateDirect(30).put(ascii(Frames.PREFACE)).flip()))
                .isEqualTo(1);
        assertThat(buffered.position()).isEqualTo(2);
        assertThat(buffered.limit()).isEqualTo(2 + Frames.PREFACE.length());
    }
}
