package io.sprout.engine.websocket;

import java.nio.ByteBuffer;

/**
 * What a {@link MessageAssembler} delivers, in arrival order: control frames, and validated messages, whole or, for
 * the kinds the listener takes in parts, in parts as they arrive.
 */
interface MessageListener {

    /** A complete text message, checked to be UTF-8, as its bytes; the buffer is only valid during the call. */
    void text(ByteBuffer utf8) throws CloseException;

    /** A complete binary message; the buffer is only valid during the call. */
    void binary(ByteBuffer message) throws CloseException;

    /** Whether a message of {@code type} ({@code TEXT} or {@code BINARY}), just starting, is wanted in parts. */
    boolean inParts(Opcode type);

    /** A part of a text message, ending on a whole character; {@code last} for the message's final part. */
    void textPart(String part, boolean last) throws CloseException;

    /** A part of a binary message; the buffer is only valid during the call. */
    void binaryPart(ByteBuffer part, boolean last) throws CloseException;

    void ping(ByteBuffer payload) throws CloseException;

    void pong(ByteBuffer payload) throws CloseException;

    /**
     * The peer's Close frame.
     *
     * @param code its code, or {@link CloseCodes#NO_STATUS} when it carried none
     * @param reason its reason, possibly empty
     */
    void closeFrame(int code, String reason) throws CloseException;
}
