package io.sprout.engine.http2;

/**
 * The frame flags of RFC 9113 §6 (their meaning depends on the frame type); other bits are ignored.
 *
 * <p>Public because the session sets them in the headers of the frames it writes.
 */
public final class Flags {

    /** DATA, HEADERS: the last frame the sender sends on the stream. */
    public static final int END_STREAM = 0x1;
    /** SETTINGS, PING: the answer to the peer's frame. */
    public static final int ACK = 0x1;
    /** HEADERS, CONTINUATION: the header block ends with this frame. */
    public static final int END_HEADERS = 0x4;
    /** DATA, HEADERS: a pad length byte and padding surround the content. */
    public static final int PADDED = 0x8;
    /** HEADERS: the five bytes of RFC 7540 priority fields come first. */
    public static final int PRIORITY = 0x20;

    private Flags() {
    }
}
