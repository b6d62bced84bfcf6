package io.sprout.engine.websocket;

/** The close status codes of RFC 6455 §7.4 and the IANA registry, and which may appear in a Close frame. */
final class CloseCodes {

    public static final int NORMAL = 1000;
    public static final int GOING_AWAY = 1001;
    public static final int PROTOCOL_ERROR = 1002;
    public static final int UNSUPPORTED_DATA = 1003;
    /** Never sent: stands for a Close frame without a code. */
    public static final int NO_STATUS = 1005;
    /** Never sent: stands for a connection lost without a Close frame. */
    public static final int ABNORMAL = 1006;
    public static final int INVALID_PAYLOAD = 1007;
    public static final int POLICY_VIOLATION = 1008;
    public static final int MESSAGE_TOO_BIG = 1009;
    public static final int MANDATORY_EXTENSION = 1010;
    public static final int INTERNAL_ERROR = 1011;
    public static final int SERVICE_RESTART = 1012;
    public static final int TRY_AGAIN_LATER = 1013;
    public static final int BAD_GATEWAY = 1014;

    private CloseCodes() {
    }

    /**
     * Whether {@code code} may be sent in a Close frame: the registered codes except those that only stand for a
     * missing frame or code (1005, 1006, 1015), and the ranges for libraries (3000–3999) and applications
     * (4000–4999). Everything else, including the unassigned rest of 1000–2999, is a protocol error.
     */
    public static boolean allowedOnTheWire(int code) {
        return code >= NORMAL && code <= UNSUPPORTED_DATA
                || code >= INVALID_PAYLOAD && code <= BAD_GATEWAY
                || code >= 3000 && code <= 4999;
    }
}
