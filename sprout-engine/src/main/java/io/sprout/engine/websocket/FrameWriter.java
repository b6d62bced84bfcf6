package io.sprout.engine.websocket;

import java.nio.ByteBuffer;

/** Encodes server frames (RFC 6455 §5.2): unmasked, with the shortest length encoding. No I/O. */
final class FrameWriter {

    /** The largest header a server frame has: two bytes and a 64-bit length. */
    static final int MAX_HEADER_LENGTH = 10;
    private static final int MAX_CONTROL_PAYLOAD = 125;
    private static final int MAX_CLOSE_REASON = MAX_CONTROL_PAYLOAD - 2;

    private FrameWriter() {
    }

    /** The header's length for a payload of {@code length} bytes. */
    static int headerLength(long length) {
        return length <= 125 ? 2 : length <= 0xFFFF ? 4 : 10;
    }

    /**
     * Writes a frame header at {@code target}'s position.
     *
     * @param compressed RSV1, set on the first frame of a {@code permessage-deflate} message
     */
    static void writeHeader(ByteBuffer target, boolean fin, boolean compressed, Opcode opcode, long length) {
        if (opcode.isControl() && (!fin || compressed || length > MAX_CONTROL_PAYLOAD)) {
            throw new IllegalArgumentException("A control frame is final, uncompressed and at most 125 bytes: "
                    + opcode + " fin=" + fin + " compressed=" + compressed + " length=" + length);
        }
        target.put((byte) ((fin ? 0x80 : 0) | (compressed ? 0x40 : 0) | opcode.code()));
        if (length <= 125) {
            target.put((byte) length);
        } else if (length <= 0xFFFF) {
            target.put((byte) 126).putShort((short) length);
        } else {
            target.put((byte) 127).putLong(length);
        }
    }

    /**
     * The payload of a Close frame: the code, then the reason in UTF-8 cut at a character boundary so the payload
     * fits a control frame. {@link CloseCodes#NO_STATUS} gives an empty payload.
     *
     * @throws IllegalArgumentException for a code that may not be sent
     */
    static byte[] closePayload(int code, String reason) {
        if (code == CloseCodes.NO_STATUS) {
            return new byte[0];
        }
        if (!CloseCodes.allowedOnTheWire(code)) {
            throw new IllegalArgumentException("Close code " + code + " may not be sent");
        }
        byte[] text = CloseReason.encode(reason, MAX_CLOSE_REASON);
        ByteBuffer payload = ByteBuffer.allocate(2 + text.length);
        return payload.putShort((short) code).put(text).array();
    }
}
