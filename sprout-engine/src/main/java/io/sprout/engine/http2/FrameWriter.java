package io.sprout.engine.http2;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Encodes frame headers, and whole control frames into heap buffers of their exact size, flipped and ready to write
 * (RFC 9113 §4.1, §6). No I/O; stateless.
 *
 * <p>Public because the session writes its frames with it: HEADERS, CONTINUATION and DATA as a header it writes in
 * front of the payload in its own buffer, the control frames whole.
 */
public final class FrameWriter {

    public static final int HEADER_LENGTH = FrameHeader.LENGTH;

    /** GOAWAY debug data is cut to fit the smallest maximum frame size a peer may have, after the 8 fixed bytes. */
    private static final int MAX_DEBUG_DATA = (int) Setting.MIN_MAX_FRAME_SIZE - 8;

    private FrameWriter() {
    }

    /**
     * Writes a 9-byte frame header at {@code array[offset]}.
     *
     * @param length the payload length, at most 2^24-1 (the caller keeps it within the peer's maximum frame size)
     * @param streamId 0 for the connection, else the stream; at most 2^31-1
     */
    public static void header(byte[] array, int offset, int length, int type, int flags, int streamId) {
        if (length < 0 || length > Setting.MAX_MAX_FRAME_SIZE) {
            throw new IllegalArgumentException("A frame's length is from 0 to 16777215, not " + length);
        }
        if (streamId < 0) {
            throw new IllegalArgumentException("A stream identifier is from 0 to 2^31-1, not " + streamId);
        }
        array[offset] = (byte) (length >>> 16);
        array[offset + 1] = (byte) (length >>> 8);
        array[offset + 2] = (byte) length;
        array[offset + 3] = (byte) type;
        array[offset + 4] = (byte) flags;
        Bytes.putInt32(array, offset + 5, streamId);
    }

    /** SETTINGS with each {@code ids[i]} set to the unsigned 32-bit {@code values[i]}, in order. */
    public static ByteBuffer settings(int[] ids, long[] values) {
        if (ids.length != values.length) {
            throw new IllegalArgumentException(ids.length + " setting ids but " + values.length + " values");
        }
        byte[] frame = frame(ids.length * 6, FrameType.SETTINGS, 0, 0);
        for (int i = 0; i < ids.length; i++) {
            int at = HEADER_LENGTH + i * 6;
            frame[at] = (byte) (ids[i] >>> 8);
            frame[at + 1] = (byte) ids[i];
            Bytes.putInt32(frame, at + 2, (int) values[i]);
        }
        return ByteBuffer.wrap(frame);
    }

    public static ByteBuffer settingsAck() {
        return ByteBuffer.wrap(frame(0, FrameType.SETTINGS, Flags.ACK, 0));
    }

    public static ByteBuffer ping(boolean ack, long data) {
        byte[] frame = frame(8, FrameType.PING, ack ? Flags.ACK : 0, 0);
        Bytes.putInt64(frame, HEADER_LENGTH, data);
        return ByteBuffer.wrap(frame);
    }

    /**
     * GOAWAY with {@code debug} (may be {@code null}) as UTF-8 debug data, cut to 16,376 bytes so that the frame
     * fits any peer's maximum frame size.
     */
    public static ByteBuffer goAway(int lastStreamId, ErrorCode code, String debug) {
        byte[] text = debug == null ? new byte[0] : debug.getBytes(StandardCharsets.UTF_8);
        int debugLength = Math.min(text.length, MAX_DEBUG_DATA);
        byte[] frame = frame(8 + debugLength, FrameType.GOAWAY, 0, 0);
        Bytes.putInt32(frame, HEADER_LENGTH, lastStreamId);
        Bytes.putInt32(frame, HEADER_LENGTH + 4, code.code());
        System.arraycopy(text, 0, frame, HEADER_LENGTH + 8, debugLength);
        return ByteBuffer.wrap(frame);
    }

    public static ByteBuffer rstStream(int streamId, ErrorCode code) {
        byte[] frame = frame(4, FrameType.RST_STREAM, 0, streamId);
        Bytes.putInt32(frame, HEADER_LENGTH, code.code());
        return ByteBuffer.wrap(frame);
    }

    /** WINDOW_UPDATE on {@code streamId} (0: the connection); {@code increment} from 1 to 2^31-1. */
    public static ByteBuffer windowUpdate(int streamId, int increment) {
        if (increment <= 0) {
            throw new IllegalArgumentException("A window increment is from 1 to 2^31-1, not " + increment);
        }
        byte[] frame = frame(4, FrameType.WINDOW_UPDATE, 0, streamId);
        Bytes.putInt32(frame, HEADER_LENGTH, increment);
        return ByteBuffer.wrap(frame);
    }

    /** A frame's bytes with its header written and room for the payload. */
    private static byte[] frame(int length, int type, int flags, int streamId) {
        byte[] frame = new byte[HEADER_LENGTH + length];
        header(frame, 0, length, type, flags, streamId);
        return frame;
    }
}
