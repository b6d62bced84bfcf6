package io.sprout.engine.http2;

/** Big-endian integers in frames (RFC 9113 §1: network byte order). */
final class Bytes {

    private Bytes() {
    }

    static int int32(byte[] bytes, int at) {
        return (bytes[at] & 0xFF) << 24 | (bytes[at + 1] & 0xFF) << 16 | (bytes[at + 2] & 0xFF) << 8
                | bytes[at + 3] & 0xFF;
    }

    /** A stream identifier or window increment: 31 bits, the reserved top bit ignored (§4.1). */
    static int int31(byte[] bytes, int at) {
        return int32(bytes, at) & 0x7FFF_FFFF;
    }

    static long int64(byte[] bytes, int at) {
        return (long) int32(bytes, at) << 32 | int32(bytes, at + 4) & 0xFFFF_FFFFL;
    }

    static void putInt32(byte[] bytes, int at, int value) {
        bytes[at] = (byte) (value >>> 24);
        bytes[at + 1] = (byte) (value >>> 16);
        bytes[at + 2] = (byte) (value >>> 8);
        bytes[at + 3] = (byte) value;
    }

    static void putInt64(byte[] bytes, int at, long value) {
        putInt32(bytes, at, (int) (value >>> 32));
        putInt32(bytes, at + 4, (int) value);
    }
}
