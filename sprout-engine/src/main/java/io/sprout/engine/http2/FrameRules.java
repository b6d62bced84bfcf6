package io.sprout.engine.http2;

import static io.sprout.engine.http2.ErrorCode.FRAME_SIZE_ERROR;
import static io.sprout.engine.http2.ErrorCode.PROTOCOL_ERROR;

/**
 * The checks of a frame that need its header alone (RFC 9113 §4.2, §6, §6.10), made before any of its payload is
 * read, so that the listener never hears of a frame that breaks them. Each failure is a connection error; the
 * stream errors of PRIORITY frames are the parser's, which must skip the frame first.
 */
final class FrameRules {

    private FrameRules() {
    }

    /**
     * Checks {@code header} as a server receives it.
     *
     * @param openBlock the stream whose header block awaits a CONTINUATION, or 0
     * @param firstAfterPreface whether this is the first frame after the client preface, which must be SETTINGS
     */
    static void check(FrameHeader header, int maxFrameSize, int openBlock, boolean firstAfterPreface) {
        if (header.length() > maxFrameSize) {
            throw error(FRAME_SIZE_ERROR, header, "is larger than the maximum frame size " + maxFrameSize);
        }
        if (firstAfterPreface && (header.type() != FrameType.SETTINGS || header.has(Flags.ACK))) {
            throw error(PROTOCOL_ERROR, header, "follows the preface, where SETTINGS must come (§3.4)");
        }
        checkSequence(header, openBlock);
        switch (header.type()) {
            case FrameType.DATA -> onStream(header, (header.has(Flags.PADDED) ? 1 : 0));
            case FrameType.HEADERS -> onStream(header, (header.has(Flags.PADDED) ? 1 : 0)
                    + (header.has(Flags.PRIORITY) ? 5 : 0));
            case FrameType.PRIORITY, FrameType.CONTINUATION -> onStream(header, 0);
            case FrameType.RST_STREAM -> {
                onStream(header, 0);
                exactly(header, 4);
            }
            case FrameType.SETTINGS -> settings(header);
            case FrameType.PUSH_PROMISE -> throw error(PROTOCOL_ERROR, header, "is a push, which clients never send");
            case FrameType.PING -> {
                onConnection(header);
                exactly(header, 8);
            }
            case FrameType.GOAWAY -> {
                onConnection(header);
                if (header.length() < 8) {
                    throw error(FRAME_SIZE_ERROR, header, "is a GOAWAY shorter than 8 bytes");
                }
            }
            case FrameType.WINDOW_UPDATE -> exactly(header, 4);
            default -> {
                // An unknown type: ignored whatever its stream, flags or length (§5.5).
            }
        }
    }

    /** A header block is contiguous: nothing but its CONTINUATION frames until END_HEADERS (§6.10). */
    private static void checkSequence(FrameHeader header, int openBlock) {
        boolean continuation = header.type() == FrameType.CONTINUATION;
        if (openBlock != 0 && (!continuation || header.streamId() != openBlock)) {
            throw error(PROTOCOL_ERROR, header, "interrupts the header block of stream " + openBlock);
        }
        if (openBlock == 0 && continuation) {
            throw error(PROTOCOL_ERROR, header, "is a CONTINUATION without an open header block");
        }
    }

    private static void onStream(FrameHeader header, int minimumLength) {
        if (header.streamId() == 0) {
            throw error(PROTOCOL_ERROR, header, "needs a stream");
        }
        if (header.length() < minimumLength) {
            throw error(FRAME_SIZE_ERROR, header, "is too short for its flags");
        }
    }

    private static void onConnection(FrameHeader header) {
        if (header.streamId() != 0) {
            throw error(PROTOCOL_ERROR, header, "belongs to the connection, not a stream");
        }
    }

    private static void settings(FrameHeader header) {
        onConnection(header);
        if (header.has(Flags.ACK) && header.length() != 0) {
            throw error(FRAME_SIZE_ERROR, header, "is a SETTINGS ACK with a payload");
        }
        if (header.length() % 6 != 0) {
            throw error(FRAME_SIZE_ERROR, header, "is a SETTINGS frame not made of 6-byte settings");
        }
    }

    private static void exactly(FrameHeader header, int length) {
        if (header.length() != length) {
            throw error(FRAME_SIZE_ERROR, header, "must have " + length + " bytes");
        }
    }

    private static Http2Exception error(ErrorCode code, FrameHeader header, String problem) {
        return Http2Exception.connection(code, "A " + header + " " + problem);
    }
}
