package io.sprout.engine.websocket;

import java.nio.ByteBuffer;

/** What a {@link MessageAssembler} delivers: whole, validated messages and control frames, in arrival order. */
interface MessageListener {

    /** A complete text message, checked to be UTF-8. */
    void text(String message) throws CloseException;

    /** A complete binary message; the buffer is only valid during the call. */
    void binary(ByteBuffer message) throws CloseException;

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
