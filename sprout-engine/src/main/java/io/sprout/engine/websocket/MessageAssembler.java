package io.sprout.engine.websocket;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Turns frames into messages (RFC 6455 §5.4–5.6): a data frame starts a message and continuation frames extend it
 * until FIN; control frames may come between fragments and are delivered at once. Fails the connection on a
 * continuation frame outside a message or a new data frame inside one (1002) and a malformed Close frame (1002, or
 * 1007 for its reason); the {@link IncomingMessage} checks a message's size (1009) and text (1007) as it arrives.
 * An uncompressed frame that would take a message over its limit fails as soon as its length is known, before
 * its payload is read. Compressed messages (RSV1) are inflated as they arrive, the limit applying to the inflated
 * size. Used by one thread at a time; the limits may be replaced from any thread and apply from the next message.
 */
final class MessageAssembler implements FrameParser.Listener {

    private final MessageListener listener;
    private final MessageInflater inflater;
    private final IncomingMessage message;
    private final Utf8Validator closeReason = new Utf8Validator();
    private final byte[] control = new byte[125];
    private volatile int maxTextLength;
    private volatile int maxBinaryLength;
    private boolean messageCompressed;
    private FrameHeader frame;
    private int controlLength;

    /**
     * @param maxTextLength the largest text message accepted whole (after inflation); longer ones fail with 1009
     * @param maxBinaryLength the same for binary messages
     * @param inflater the {@code permessage-deflate} inflater, or {@code null} when compression is off
     */
    MessageAssembler(MessageListener listener, int maxTextLength, int maxBinaryLength, MessageInflater inflater) {
        this.listener = listener;
        this.inflater = inflater;
        this.message = new IncomingMessage(listener);
        limits(maxTextLength, maxBinaryLength);
    }

    /** Replaces the message limits, from the next message on (any thread). */
    void limits(int maxText, int maxBinary) {
        maxTextLength = maxText;
        maxBinaryLength = maxBinary;
    }

    @Override
    public void frameStart(FrameHeader header) throws CloseException {
        frame = header;
        if (header.opcode().isControl()) {
            controlLength = 0;
            return;
        }
        if (header.opcode() == Opcode.CONTINUATION) {
            if (!message.inProgress()) {
                throw new CloseException(CloseCodes.PROTOCOL_ERROR, "A continuation frame outside a message");
            }
            if (header.compressed()) {
                throw new CloseException(CloseCodes.PROTOCOL_ERROR, "RSV1 set on a continuation frame");
            }
        } else {
            if (message.inProgress()) {
                throw new CloseException(CloseCodes.PROTOCOL_ERROR,
                        "A new " + header.opcode() + " message before the previous one ended");
            }
            message.start(header.opcode(), header.opcode() == Opcode.TEXT ? maxTextLength : maxBinaryLength);
            messageCompressed = header.compressed();
        }
        if (!messageCompressed) {
            message.expect(header.length());
        }
    }

    @Override
    public void payload(ByteBuffer bytes) throws CloseException {
        if (frame.opcode().isControl()) {
            int count = bytes.remaining();
            bytes.get(control, controlLength, count);
            controlLength += count;
        } else if (messageCompressed) {
            inflater.inflate(bytes, message::append);
        } else {
            message.append(bytes);
        }
    }

    @Override
    public void frameEnd() throws CloseException {
        if (frame.opcode().isControl()) {
            controlFrame(frame.opcode());
            return;
        }
        if (frame.fin() && messageCompressed) {
            inflater.finishMessage(message::append);
        }
        message.frameEnd(frame.fin());
    }

    private void controlFrame(Opcode opcode) throws CloseException {
        ByteBuffer payload = ByteBuffer.wrap(control, 0, controlLength);
        switch (opcode) {
            case PING -> listener.ping(payload);
            case PONG -> listener.pong(payload);
            case CLOSE -> close(payload);
            default -> throw new IllegalStateException(opcode.name());
        }
    }

    private void close(ByteBuffer payload) throws CloseException {
        if (controlLength == 0) {
            listener.closeFrame(CloseCodes.NO_STATUS, "");
            return;
        }
        if (controlLength == 1) {
            throw new CloseException(CloseCodes.PROTOCOL_ERROR, "A Close frame with a one-byte payload");
        }
        int code = payload.getShort() & 0xFFFF;
        if (!CloseCodes.allowedOnTheWire(code)) {
            throw new CloseException(CloseCodes.PROTOCOL_ERROR, "A Close frame with code " + code);
        }
        closeReason.reset();
        if (!closeReason.accept(payload) || !closeReason.complete()) {
            throw new CloseException(CloseCodes.INVALID_PAYLOAD, "A Close frame whose reason is not UTF-8");
        }
        listener.closeFrame(code, StandardCharsets.UTF_8.decode(payload).toString());
    }
}
