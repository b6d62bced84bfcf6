package io.sprout.engine.http2;

import java.nio.ByteBuffer;

/**
 * Receives what a {@link FrameParser} reads, frame by frame, in the order of the bytes. Called by the thread that
 * calls {@link FrameParser#parse}, within that call. Payload buffers are views of the parsed bytes, valid only during
 * the call: a listener that keeps bytes copies them.
 *
 * <p>A listener may throw (an {@link Http2Exception} for a connection error it finds, say of flow control): the
 * exception leaves {@code parse} and the parser is dead. Stream errors it finds are its own to handle, by resetting
 * the stream: thrown, they would kill the parser too.
 *
 * <p>Public because the session implements it: the codec's events flow upwards.
 */
public interface FrameListener {

    /**
     * A DATA frame begins.
     *
     * @param flowControlled the whole payload length, pad length byte and padding included: what flow control
     *     counts (§6.9.1)
     */
    void dataStart(int streamId, int flowControlled, boolean endStream);

    /** Bytes of the current DATA frame, padding excluded, never empty; zero or more calls per frame. */
    void data(int streamId, ByteBuffer bytes);

    /** The current DATA frame is complete, padding included. */
    void dataEnd(int streamId, boolean endStream);

    /** A HEADERS frame begins; its priority fields, if any, were read and are ignored (RFC 9218 replaces them). */
    void headersStart(int streamId, boolean endStream, boolean endHeaders);

    /** A CONTINUATION frame of the open header block begins. */
    void continuationStart(int streamId, boolean endHeaders);

    /**
     * Header block bytes of the current HEADERS or CONTINUATION frame, padding excluded, never empty; zero or more
     * calls per frame.
     */
    void headerBlock(int streamId, ByteBuffer fragment);

    /** The current HEADERS or CONTINUATION frame is complete; {@code endHeaders} if it ended the header block. */
    void headerBlockEnd(int streamId, boolean endHeaders);

    /** A valid PRIORITY frame (§6.3), otherwise ignored. */
    void priority(int streamId);

    /** RST_STREAM (§6.4) with the peer's error code, unsigned, possibly unknown to {@link ErrorCode}. */
    void rstStream(int streamId, int errorCode);

    /**
     * SETTINGS, not an ACK (§6.5): parallel arrays of identifiers and unsigned 32-bit values, in the order they came,
     * each already checked by {@link Setting#check}. Empty for an empty frame.
     */
    void settings(int[] ids, long[] values);

    /** SETTINGS with the ACK flag. */
    void settingsAck();

    /** PING (§6.7). */
    void ping(boolean ack, long opaqueData);

    /**
     * GOAWAY (§6.8).
     *
     * @param errorCode unsigned, possibly unknown to {@link ErrorCode}
     * @param debugData at most the first 1,024 bytes of the debug data; the rest is dropped
     */
    void goAway(int lastStreamId, int errorCode, ByteBuffer debugData);

    /** WINDOW_UPDATE (§6.9); {@code increment} may be 0, which the session answers (§6.9: stream or connection). */
    void windowUpdate(int streamId, int increment);

    /** A frame of an unknown type, ignored (§5.5) once its payload was skipped; for the session's overhead count. */
    void unknownFrame(int type, int streamId, int length);

    /**
     * A stream error the parser found (§5.4.2); the parser carries on with the next frame, and the session resets
     * the stream. Called when the offending frame is consumed: after a PRIORITY frame's payload (length not 5:
     * FRAME_SIZE_ERROR; depending on itself: PROTOCOL_ERROR). One exception: a HEADERS frame whose priority fields
     * make the stream depend on itself is reported right after those fields, before its {@link #headersStart}, so
     * that the session never starts the stream; its header block is still delivered, because HPACK state must take
     * it in even for a stream that is reset (§4.3).
     */
    void streamError(Http2Exception error);
}
