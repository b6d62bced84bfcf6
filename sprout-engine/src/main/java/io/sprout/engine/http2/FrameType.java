package io.sprout.engine.http2;

/**
 * The frame types of RFC 9113 §6; any other type is unknown and ignored (§5.5).
 *
 * <p>Public because the session names frame types when it writes frame headers and counts overhead.
 */
public final class FrameType {

    public static final int DATA = 0x0;
    public static final int HEADERS = 0x1;
    public static final int PRIORITY = 0x2;
    public static final int RST_STREAM = 0x3;
    public static final int SETTINGS = 0x4;
    public static final int PUSH_PROMISE = 0x5;
    public static final int PING = 0x6;
    public static final int GOAWAY = 0x7;
    public static final int WINDOW_UPDATE = 0x8;
    public static final int CONTINUATION = 0x9;

    private FrameType() {
    }
}
