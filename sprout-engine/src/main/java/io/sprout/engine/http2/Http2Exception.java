package io.sprout.engine.http2;

/**
 * The peer broke the protocol: a connection error (RFC 9113 §5.4.1), answered with GOAWAY and a close, or a stream
 * error (§5.4.2), answered with RST_STREAM on {@link #streamId()} while the connection carries on.
 *
 * <p>Thrown often by hostile input and always handled by the session, so it carries no stack trace.
 *
 * <p>Public because the session catches the parser's connection errors, receives its stream errors through
 * {@link FrameListener#streamError}, and raises its own (flow control, stream states) with the same type.
 */
public final class Http2Exception extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final ErrorCode code;
    private final int streamId;

    private Http2Exception(ErrorCode code, int streamId, String message) {
        super(message, null, false, false);
        this.code = code;
        this.streamId = streamId;
    }

    /** An error that ends the connection. */
    public static Http2Exception connection(ErrorCode code, String message) {
        return new Http2Exception(code, 0, message);
    }

    /** An error that ends only the stream {@code streamId}, which is positive. */
    public static Http2Exception stream(int streamId, ErrorCode code, String message) {
        if (streamId <= 0) {
            throw new IllegalArgumentException("A stream error needs a stream, not " + streamId);
        }
        return new Http2Exception(code, streamId, message);
    }

    /** The code to send in GOAWAY or RST_STREAM. */
    public ErrorCode code() {
        return code;
    }

    /** The stream to reset, or 0 for a connection error. */
    public int streamId() {
        return streamId;
    }

    public boolean isConnectionError() {
        return streamId == 0;
    }

    @Override
    public String toString() {
        return (isConnectionError() ? "connection error " : "stream error on " + streamId + " ") + code + ": "
                + getMessage();
    }
}
