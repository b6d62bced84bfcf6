package io.sprout.engine.http2;

import java.nio.ByteBuffer;
import java.util.Base64;

/**
 * The identifiers of SETTINGS parameters (RFC 9113 §6.5.2, and {@code SETTINGS_NO_RFC7540_PRIORITIES} of RFC 9218
 * §2.1) and the check of a received value.
 *
 * <p>Public because the session writes its own settings and applies the peer's with these identifiers.
 */
public final class Setting {

    public static final int HEADER_TABLE_SIZE = 0x1;
    public static final int ENABLE_PUSH = 0x2;
    public static final int MAX_CONCURRENT_STREAMS = 0x3;
    public static final int INITIAL_WINDOW_SIZE = 0x4;
    public static final int MAX_FRAME_SIZE = 0x5;
    public static final int MAX_HEADER_LIST_SIZE = 0x6;
    public static final int NO_RFC7540_PRIORITIES = 0x9;

    /** The largest flow-control window (§6.9.1) and so the largest {@code INITIAL_WINDOW_SIZE}. */
    static final long MAX_WINDOW = 0x7FFF_FFFFL;
    /** The bounds of {@code MAX_FRAME_SIZE} (§6.5.2): the initial value and 2^24-1. */
    static final long MIN_MAX_FRAME_SIZE = 16_384;
    static final long MAX_MAX_FRAME_SIZE = 0xFF_FFFF;

    private Setting() {
    }

    /**
     * Checks one received setting (§6.5.2): {@code ENABLE_PUSH} and {@code NO_RFC7540_PRIORITIES} are 0 or 1,
     * {@code INITIAL_WINDOW_SIZE} at most 2^31-1, {@code MAX_FRAME_SIZE} from 16,384 to 2^24-1. Unknown
     * identifiers are fine: a receiver ignores them.
     *
     * @param value the unsigned 32-bit value
     * @throws Http2Exception a connection error: FLOW_CONTROL_ERROR for the window, PROTOCOL_ERROR otherwise
     */
    public static void check(int id, long value) {
        switch (id) {
            case ENABLE_PUSH, NO_RFC7540_PRIORITIES -> {
                if (value != 0 && value != 1) {
                    throw invalid(ErrorCode.PROTOCOL_ERROR, id, value, "0 or 1");
                }
            }
            case INITIAL_WINDOW_SIZE -> {
                if (value > MAX_WINDOW) {
                    throw invalid(ErrorCode.FLOW_CONTROL_ERROR, id, value, "at most 2^31-1");
                }
            }
            case MAX_FRAME_SIZE -> {
                if (value < MIN_MAX_FRAME_SIZE || value > MAX_MAX_FRAME_SIZE) {
                    throw invalid(ErrorCode.PROTOCOL_ERROR, id, value, "from 16384 to 16777215");
                }
            }
            default -> {
                // HEADER_TABLE_SIZE, MAX_CONCURRENT_STREAMS, MAX_HEADER_LIST_SIZE take any value; others are ignored.
            }
        }
    }

    /**
     * Decodes the base64url SETTINGS payload of an h2c upgrade's {@code HTTP2-Settings} field (RFC 7540 §3.2.1)
     * into identifier/value pairs; {@code null} when it is malformed. The values are checked when applied.
     */
    public static long[] fromUpgradeHeader(String http2Settings) {
        byte[] payload;
        try {
            payload = Base64.getUrlDecoder().decode(http2Settings.strip());
        } catch (IllegalArgumentException malformed) {
            return null;
        }
        if (payload.length % 6 != 0) {
            return null;
        }
        long[] pairs = new long[payload.length / 6 * 2];
        ByteBuffer in = ByteBuffer.wrap(payload);
        for (int i = 0; i < pairs.length; i += 2) {
            pairs[i] = in.getShort() & 0xffff;
            pairs[i + 1] = in.getInt() & 0xffffffffL;
        }
        return pairs;
    }

    private static Http2Exception invalid(ErrorCode code, int id, long value, String allowed) {
        return Http2Exception.connection(code, "Setting 0x" + Integer.toHexString(id) + " is " + value + ", must be "
                + allowed);
    }
}
