package io.sprout.engine.websocket;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.Deflater;

/** Builds client frames byte by byte, as a browser would send them (masked), or broken in a chosen way. */
public final class ClientFrames {

    private static final byte[] MASK = {0x37, (byte) 0xFA, 0x21, 0x3D};

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    public ClientFrames frame(boolean fin, int rsv, int opcode, byte[] payload) {
        return frame(fin, rsv, opcode, payload, true);
    }

    public ClientFrames frame(boolean fin, int rsv, int opcode, byte[] payload, boolean masked) {
        bytes.write((fin ? 0x80 : 0) | rsv << 4 | opcode);
        int maskBit = masked ? 0x80 : 0;
        if (payload.length <= 125) {
            bytes.write(maskBit | payload.length);
        } else if (payload.length <= 0xFFFF) {
            bytes.write(maskBit | 126);
            bytes.writeBytes(ByteBuffer.allocate(2).putShort((short) payload.length).array());
        } else {
            bytes.write(maskBit | 127);
            bytes.writeBytes(ByteBuffer.allocate(8).putLong(payload.length).array());
        }
        if (masked) {
            bytes.writeBytes(MASK);
            byte[] masking = payload.clone();
            for (int i = 0; i < masking.length; i++) {
                masking[i] ^= MASK[i & 3];
            }
            bytes.writeBytes(masking);
        } else {
            bytes.writeBytes(payload);
        }
        return this;
    }

    public ClientFrames text(String text) {
        return frame(true, 0, 0x1, utf8(text));
    }

    public ClientFrames raw(int... values) {
        for (int value : values) {
            bytes.write(value);
        }
        return this;
    }

    public byte[] bytes() {
        return bytes.toByteArray();
    }

    public static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    public static byte[] closePayload(int code, byte[] reason) {
        return ByteBuffer.allocate(2 + reason.length).putShort((short) code).put(reason).array();
    }

    /** What a client's {@code permessage-deflate} sends for one message: a sync-flushed block without its tail. */
    public static byte[] compressed(Deflater deflater, byte[] message) {
        deflater.setInput(message);
        byte[] out = new byte[message.length + 64];
        int length = deflater.deflate(out, 0, out.length, Deflater.SYNC_FLUSH);
        return Arrays.copyOf(out, length - 4);
    }
}
