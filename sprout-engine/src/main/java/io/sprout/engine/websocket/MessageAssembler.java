package io.sprout.engine.websocket;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Turns frames into messages (RFC 6455 §5.4–5.6): a data frame starts a message and continuation frames extend it
 * until FIN; control frames may come between fragments and are delivered at once. Fails the connection on a
 * continuation frame outside a message or a new data frame inside one (1002), a message over the size limit
 * (1009), text that is not UTF-8, checked as it arrives, so the connection fails at the first bad byte (1007), and
 * a malformed Close frame (1002, or 1007 for its reason). Compressed messages (RSV1) are inflated as they arrive,
 * the limit applying to the inflated size. Used by one thread at a time.
 */
final class MessageAssembler implements FrameParser.Listener {

    private static final int INITIAL_CAPACITY = 256;

    private final MessageListener listener;
    private final int maxTextLength;
    private final int maxBinaryLength;
    private int maxMessageLength;
    private final MessageInflater inflater;
    private final Utf8Validator utf8 = new Utf8Validator();
    private final Utf8Validator closeReason = new Utf8Validator();
    private final byte[] control = new byte[125];
    private byte[] message = new byte[INITIAL_CAPACITY];
    private int messageLength;
    /** The data opcode of the message in progress, or {@code null} between messages. */
    private Opcode messageType;
    private boolean messageCompressed;
    private FrameHeader frame;
    private int controlLength;

    /**
     * @param maxTextLength the largest text message accepted (after inflation); longer ones fail with 1009
     * @param maxBinaryLength the same for binary messages
     * @param inflater the {@code permessage-deflate} inflater, or {@code null} when compression is off
     */
    MessageAssembler(MessageListener listener, int maxTextLength, int maxBinaryLength, MessageInflater inflater) {
        this.listener = listener;
        this.maxTextLength = maxTextLength;
        this.maxBinaryLength = maxBinaryLength;
        this.inflater = inflater;
    }

    @Override
    public void frameStart(FrameHeader header) throws CloseException {
        frame = header;
        if (header.opcode().isControl()) {
            controlLength = 0;
            return;
        }
        if (header.opcode() == Opcode.CONTINUATION) {
            if (messageType == null) {
                throw new CloseException(CloseCodes.PROTOCOL_ERROR, "A continuation frame outside a message");
            }
            if (header.compressed()) {
                throw new CloseException(CloseCodes.PROTOCOL_ERROR, "RSV1 set on a continuation frame");
            }
            return;
        }
        if (messageType != null) {
            throw new CloseException(CloseCodes.PROTOCOL_ERROR,
                    "A new " + header.opcode() + " message before the previous one ended");
        }
        messageType = header.opcode();
        maxMessageLength = messageType == Opcode.TEXT ? maxTextLength : maxBinaryLength;
        messageCompressed = header.compressed();
        messageLength = 0;
        utf8.reset();
    }

    @Override
    public void payload(ByteBuffer bytes) throws CloseException {
        if (frame.opcode().isControl()) {
            int count = bytes.remaining();
            bytes.get(control, controlLength, count);
            controlLength += count;
        } else if (messageCompressed) {
            inflater.inflate(bytes, this::append);
        } else {
            append(bytes);
        }
    }

    @Override
    public void frameEnd() throws CloseException {
        if (frame.opcode().isControl()) {
            controlFrame(frame.opcode());
            return;
        }
        if (!frame.fin()) {
            return;
        }
        if (messageCompressed) {
            inflater.finishMessage(this::append);
        }
        Opcode type = messageType;
        messageType = null;
        if (type == Opcode.TEXT) {
            if (!utf8.complete()) {
                throw new CloseException(CloseCodes.INVALID_PAYLOAD, "A text message ends inside a UTF-8 sequence");
            }
            listener.text(new String(message, 0, messageLength, StandardCharsets.UTF_8));
        } else {
            listener.binary(ByteBuffer.wrap(message, 0, messageLength));
        }
        if (message.length > INITIAL_CAPACITY * 64) {
            // A large message is not kept for the session's lifetime; most messages are small.
            message = new byte[INITIAL_CAPACITY];
        }
    }

    private void append(ByteBuffer bytes) throws CloseException {
        int count = bytes.remaining();
        if ((long) messageLength + count > maxMessageLength) {
            throw new CloseException(CloseCodes.MESSAGE_TOO_BIG,
                    "A message of more than " + maxMessageLength + " bytes");
        }
        if (messageType == Opcode.TEXT && !utf8.accept(bytes)) {
            throw new CloseException(CloseCodes.INVALID_PAYLOAD, "A text message that is not UTF-8");
        }
        if (messageLength + count > message.length) {
            message = Arrays.copyOf(message, Math.min(maxMessageLength,
                    Math.max(message.length * 2, messageLength + count)));
        }
        bytes.get(message, messageLength, count);
        messageLength += count;
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
