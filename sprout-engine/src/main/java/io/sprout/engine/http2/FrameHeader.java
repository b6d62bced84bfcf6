package io.sprout.engine.http2;

/** The nine bytes that begin every frame (RFC 9113 §4.1), the stream identifier's reserved bit masked off. */
record FrameHeader(int length, int type, int flags, int streamId) {

    static final int LENGTH = 9;

    /** Reads a header from the first nine bytes of {@code bytes}. */
    static FrameHeader read(byte[] bytes) {
        int length = (bytes[0] & 0xFF) << 16 | (bytes[1] & 0xFF) << 8 | bytes[2] & 0xFF;
        return new FrameHeader(length, bytes[3] & 0xFF, bytes[4] & 0xFF, Bytes.int31(bytes, 5));
    }

    boolean has(int flag) {
        return (flags & flag) != 0;
    }

    @Override
    public String toString() {
        return "frame type 0x" + Integer.toHexString(type) + " on stream " + streamId + " (" + length + " bytes)";
    }
}
