package io.sprout.engine.http2;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** The client connection preface (RFC 9113 §3.4), which a client sends before its first frame. */
final class Preface {

    /** {@code PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n}, 24 bytes. */
    private static final byte[] BYTES = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    static final int LENGTH = BYTES.length;

    private Preface() {
    }

    /** Whether {@code b} is the preface's byte at {@code index}. */
    static boolean matches(int index, byte b) {
        return BYTES[index] == b;
    }

    /** -1 when the bytes differ from the preface, 0 when they are a proper prefix of it, 1 when they begin with it. */
    static int match(ByteBuffer buffered) {
        int count = Math.min(buffered.remaining(), LENGTH);
        int start = buffered.position();
        for (int i = 0; i < count; i++) {
            if (buffered.get(start + i) != BYTES[i]) {
                return -1;
            }
        }
        return count == LENGTH ? 1 : 0;
    }
}
