package io.sprout.engine.websocket;

/** The frame opcodes of RFC 6455 §5.2; the rest of the 4-bit space is reserved and fails the connection. */
enum Opcode {
    CONTINUATION(0x0), TEXT(0x1), BINARY(0x2), CLOSE(0x8), PING(0x9), PONG(0xA);

    private static final Opcode[] BY_CODE = new Opcode[16];

    static {
        for (Opcode opcode : values()) {
            BY_CODE[opcode.code] = opcode;
        }
    }

    private final int code;

    Opcode(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** Control frames (close, ping, pong) carry at most 125 bytes and are never fragmented. */
    public boolean isControl() {
        return code >= 0x8;
    }

    /** The opcode for the low four bits of {@code code}, or {@code null} when it is reserved. */
    static Opcode of(int code) {
        return BY_CODE[code & 0xF];
    }
}
