package io.sprout.engine.websocket;

/**
 * The peer broke the protocol (or a limit): the connection must be failed with {@link #code()}, whose reason is the
 * message. The WebSocket counterpart of {@code HttpException}.
 */
final class CloseException extends Exception {

    private static final long serialVersionUID = 1L;

    private final int code;

    CloseException(int code, String reason) {
        super(reason, null, false, false);
        this.code = code;
    }

    /** The close code to send, one of {@link CloseCodes}. */
    public int code() {
        return code;
    }
}
