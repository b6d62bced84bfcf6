package io.sprout.engine.http2;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Client bytes written by hand, independent of {@link FrameWriter}, so that the parser is checked against the RFC's
 * layout rather than against the writer.
 */
final class Frames {

    static final String PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    Frames preface() {
        return raw(ascii(PREFACE));
    }

    /** A frame with a 9-byte header; {@code streamId} is written as is, reserved bit included. */
    Frames frame(int type, int flags, int streamId, byte[] payload) {
        return frame(payload.length, type, flags, streamId, payload);
    }

    /** A frame whose header announces {@code length}, whatever the payload holds. */
    Frames frame(int length, int type, int flags, int streamId, byte[] payload) {
        out.writeBytes(new byte[] {(byte) (length >>> 16), (byte) (length >>> 8), (byte) length, (byte) type,
                (byte) flags});
        out.writeBytes(int32(streamId));
        out.writeBytes(payload);
        return this;
    }

    /** SETTINGS from pairs of identifier and value. */
    Frames settings(long... idsAndValues) {
        ByteArrayOutputStream payload = new ByteArrayOutputStream();
        for (int i = 0; i < idsAndValues.length; i += 2) {
            payload.writeBytes(new byte[] {(byte) (idsAndValues[i] >>> 8), (byte) idsAndValues[i]});
            payload.writeBytes(int32((int) idsAndValues[i + 1]));
        }
        return frame(FrameType.SETTINGS, 0, 0, payload.toByteArray());
    }

    Frames raw(byte[] bytes) {
        out.writeBytes(bytes);
        return this;
    }

    byte[] bytes() {
        return out.toByteArray();
    }

    static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    static byte[] int32(int value) {
        return ByteBuffer.allocate(4).putInt(value).array();
    }

    static byte[] int64(long value) {
        return ByteBuffer.allocate(8).putLong(value).array();
    }

    /** Concatenates byte arrays. */
    static byte[] join(byte[]... parts) {
        ByteArrayOutputStream joined = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            joined.writeBytes(part);
        }
        return joined.toByteArray();
    }

    /** {@code count} copies of {@code b}: padding, or filler that must not be delivered. */
    static byte[] filled(int count, char b) {
        byte[] bytes = new byte[count];
        java.util.Arrays.fill(bytes, (byte) b);
        return bytes;
    }

    /** The padded form of a DATA or HEADERS payload: pad length, {@code middle}, then padding of {@code '#'}. */
    static byte[] padded(int padLength, byte[] middle) {
        return join(new byte[] {(byte) padLength}, middle, filled(padLength, '#'));
    }

    /** HEADERS priority fields: exclusive bit, dependency, weight. */
    static byte[] priority(boolean exclusive, int dependency, int weight) {
        return join(int32(dependency | (exclusive ? 0x8000_0000 : 0)), new byte[] {(byte) weight});
    }
}
