package io.sprout.engine.http2;

/**
 * Reports the control frames whose payload the parser reads whole into its field (RFC 9113 §6.3, §6.4, §6.7,
 * §6.9): PRIORITY, RST_STREAM, PING and WINDOW_UPDATE, their lengths already checked.
 */
final class ControlFrames {

    static final int PRIORITY_LENGTH = 5;

    private ControlFrames() {
    }

    /** Calls the listener for the frame {@code header} whose payload is at the start of {@code payload}. */
    static void deliver(FrameHeader header, byte[] payload, FrameListener listener) {
        int streamId = header.streamId();
        switch (header.type()) {
            case FrameType.PRIORITY -> priority(header, payload, listener);
            case FrameType.RST_STREAM -> listener.rstStream(streamId, Bytes.int32(payload, 0));
            case FrameType.PING -> listener.ping(header.has(Flags.ACK), Bytes.int64(payload, 0));
            case FrameType.WINDOW_UPDATE -> listener.windowUpdate(streamId, Bytes.int31(payload, 0));
            default -> throw new IllegalArgumentException("Not a fixed-size control frame: " + header);
        }
    }

    /** Whether the priority fields at the start of {@code fields} make the stream depend on itself (§5.3.1). */
    static boolean dependsOnItself(FrameHeader header, byte[] fields) {
        return Bytes.int31(fields, 0) == header.streamId();
    }

    static Http2Exception dependsOnItself(int streamId) {
        return Http2Exception.stream(streamId, ErrorCode.PROTOCOL_ERROR,
                "Stream " + streamId + " depends on itself (§5.3.1)");
    }

    /** A valid PRIORITY frame is reported and otherwise ignored; an invalid one is a stream error (§6.3). */
    private static void priority(FrameHeader header, byte[] payload, FrameListener listener) {
        if (header.length() != PRIORITY_LENGTH) {
            listener.streamError(Http2Exception.stream(header.streamId(), ErrorCode.FRAME_SIZE_ERROR,
                    "A PRIORITY frame of " + header.length() + " bytes, not 5"));
        } else if (dependsOnItself(header, payload)) {
            listener.streamError(dependsOnItself(header.streamId()));
        } else {
            listener.priority(header.streamId());
        }
    }
}
