package io.sprout.engine.websocket;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The data message being received: its bytes are checked as they arrive (text against UTF-8, at the first bad
 * byte: 1007) and delivered to the {@link MessageListener} either whole when it ends, refused with 1009 beyond its
 * size limit, or in parts, each at most a part's size and ending on a whole character, when the listener asked for
 * parts. A message in parts has no size limit: nothing of it is kept once delivered. Used by one thread at a time.
 */
final class IncomingMessage {

    private static final int INITIAL_CAPACITY = 256;
    /** The largest part delivered at once: a part is also bounded by the message limit that would apply. */
    static final int MAX_PART = 65_536;
    /** The smallest part: any UTF-8 character fits, so a text part never has to end inside one. */
    private static final int MIN_PART = 16;

    private final MessageListener listener;
    private final Utf8Validator utf8 = new Utf8Validator();
    private byte[] bytes = new byte[INITIAL_CAPACITY];
    private int length;
    private Opcode type;
    private boolean inParts;
    /** Whole: the largest message accepted. In parts: the most bytes held before a part is delivered. */
    private int capacity;

    IncomingMessage(MessageListener listener) {
        this.listener = listener;
    }

    /** A message of {@code type} starts, limited to {@code limit} bytes unless the listener takes it in parts. */
    void start(Opcode type, int limit) {
        this.type = type;
        inParts = listener.inParts(type);
        capacity = inParts ? Math.clamp(limit, MIN_PART, MAX_PART) : limit;
        length = 0;
        utf8.reset();
    }

    /** Fails at once with 1009 when {@code more} bytes would take a whole message over its limit. */
    void expect(long more) throws CloseException {
        if (!inParts && length + more > capacity) {
            throw tooBig();
        }
    }

    void append(ByteBuffer more) throws CloseException {
        while (more.hasRemaining()) {
            if (length == capacity) {
                if (!inParts) {
                    throw tooBig();
                }
                deliverPart(false);
            }
            int count = Math.min(more.remaining(), capacity - length);
            // Checked piece by piece as it is taken, so a part ends where the checked bytes do.
            if (type == Opcode.TEXT && !utf8.accept(more, count)) {
                throw new CloseException(CloseCodes.INVALID_PAYLOAD, "A text message that is not UTF-8");
            }
            if (length + count > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.min(capacity, Math.max(bytes.length * 2, length + count)));
            }
            more.get(bytes, length, count);
            length += count;
        }
    }

    /** A frame of the message ended: the message ends with it when {@code last}; a part is delivered at each. */
    void frameEnd(boolean last) throws CloseException {
        if (last && type == Opcode.TEXT && !utf8.complete()) {
            throw new CloseException(CloseCodes.INVALID_PAYLOAD, "A text message ends inside a UTF-8 sequence");
        }
        if (inParts) {
            if (last || length > utf8.unfinished()) {
                deliverPart(last);
            }
        } else if (last) {
            if (type == Opcode.TEXT) {
                // Undecoded: a handler that wants a String decodes it, one that wants bytes takes them as they are.
                listener.text(ByteBuffer.wrap(bytes, 0, length));
            } else {
                listener.binary(ByteBuffer.wrap(bytes, 0, length));
            }
        }
        if (last) {
            type = null;
            if (bytes.length > INITIAL_CAPACITY * 64) {
                // A large message is not kept for the session's lifetime; most messages are small.
                bytes = new byte[INITIAL_CAPACITY];
            }
        }
    }

    /** Whether a message is in progress: its first frame came and its last has not. */
    boolean inProgress() {
        return type != null;
    }

    /** Delivers what is held, less a character still unfinished, which starts the next part. */
    private void deliverPart(boolean last) throws CloseException {
        if (type == Opcode.TEXT) {
            int kept = last ? 0 : utf8.unfinished();
            int complete = length - kept;
            String part = new String(bytes, 0, complete, StandardCharsets.UTF_8);
            System.arraycopy(bytes, complete, bytes, 0, kept);
            length = kept;
            listener.textPart(part, last);
        } else {
            int complete = length;
            length = 0;
            listener.binaryPart(ByteBuffer.wrap(bytes, 0, complete), last);
        }
    }

    private CloseException tooBig() {
        return new CloseException(CloseCodes.MESSAGE_TOO_BIG, "A " + type.name().toLowerCase()
                + " message of more than " + capacity + " bytes");
    }
}
