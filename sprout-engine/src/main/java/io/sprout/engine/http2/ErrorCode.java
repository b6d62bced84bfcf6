package io.sprout.engine.http2;

/**
 * The error codes of RST_STREAM and GOAWAY frames (RFC 9113 §7).
 *
 * <p>Public because the session sends them in the frames it writes and reads them from those the peer sends.
 */
public enum ErrorCode {
    NO_ERROR(0x0),
    PROTOCOL_ERROR(0x1),
    INTERNAL_ERROR(0x2),
    FLOW_CONTROL_ERROR(0x3),
    SETTINGS_TIMEOUT(0x4),
    STREAM_CLOSED(0x5),
    FRAME_SIZE_ERROR(0x6),
    REFUSED_STREAM(0x7),
    CANCEL(0x8),
    COMPRESSION_ERROR(0x9),
    CONNECT_ERROR(0xa),
    ENHANCE_YOUR_CALM(0xb),
    INADEQUATE_SECURITY(0xc),
    HTTP_1_1_REQUIRED(0xd);

    /** Indexed by code: the codes run from 0 without a gap, in declaration order. */
    private static final ErrorCode[] BY_CODE = values();

    private final int code;

    ErrorCode(int code) {
        this.code = code;
    }

    /** The code on the wire, an unsigned 32-bit value. */
    public int code() {
        return code;
    }

    /** The error with this code, or {@code null} for an unknown one, which is not an error itself (§7). */
    public static ErrorCode of(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
