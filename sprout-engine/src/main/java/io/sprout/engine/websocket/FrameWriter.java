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
        byte[] header = new byte[MAX_HEADER_LENGTH];
        target.put(header, 0, writeHeader(header, firstByte(fin, compressed, opcode, length), length));
    }

    /**
     * The header's first byte: FIN, RSV1 and the opcode.
     *
     * @param compressed RSV1, set on the first frame of a {@code permessage-deflate} message
     * @throws IllegalArgumentException for a control frame that is not final, compressed, or too long
     */
    static int firstByte(boolean fin, boolean compressed, Opcode opcode, long length) {
        if (opcode.isControl() && (!fin || compressed || length > MAX_CONTROL_PAYLOAD)) {
            throw new IllegalArgumentException("A control frame is final, uncompressed and at most 125 bytes: "
                    + opcode + " fin=" + fin + " compressed=" + compressed + " length=" + length);
        }
        return (fin ? 0x80 : 0) | (compressed ? 0x40 : 0) | opcode.code();
    }

    /**
     * Writes a header, given its {@link #firstByte}, at the start of {@code target} (at least
     * {@link #MAX_HEADER_LENGTH} long) and returns its length.
     */
    static int writeHeader(byte[] target, int firstByte, long length) {
        target[0] = (byte) firstByte;
        if (length <= 125) {
            target[1] = (byte) length;
            return 2;
        }
        if (length <= 0xFFFF) {
            target[1] = 126;
            target[2] = (byte) (length >>> 8);
            target[3] = (byte) length;
            return 4;
        }
        target[1] = 127;
        for (int i = 0; i < 8; i++) {
            target[2 + i] = (byte) (length >>> (56 - 8 * i));
        }
        return 10;
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
