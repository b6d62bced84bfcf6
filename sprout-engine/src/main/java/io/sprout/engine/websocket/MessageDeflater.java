package io.sprout.engine.websocket;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.Deflater;

/**
 * The sending half of {@code permessage-deflate} (RFC 7692 §7.2.1): each message is compressed with a sync flush
 * and sent without the trailing {@code 00 00 FF FF}; the window is kept across messages unless
 * {@code server_no_context_takeover} was agreed. Used by one thread at a time; {@link #close()} frees the native
 * deflater.
 */
final class MessageDeflater implements AutoCloseable {

    private static final int TAIL_LENGTH = 4;

    private final int level;
    private final boolean resetAfterEachMessage;
    /** Created with the first message: an idle connection holds no native deflater. */
    private Deflater deflater;
    private byte[] out;

    /**
     * @param level the {@link Deflater} compression level
     * @param resetAfterEachMessage {@code server_no_context_takeover} was agreed
     */
    MessageDeflater(int level, boolean resetAfterEachMessage) {
        this.level = level;
        this.resetAfterEachMessage = resetAfterEachMessage;
    }

    /** Compresses a whole message; returns the payload to send in frames marked RSV1 on the first. */
    byte[] deflate(ByteBuffer message) {
        if (!message.hasRemaining()) {
            // A flush with no new input produces nothing; an empty stored block is the empty message (§7.2.3.6).
            return new byte[] {0};
        }
        if (deflater == null) {
            deflater = new Deflater(level, true);
            out = new byte[1024];
        }
        deflater.setInput(message);
        int length = 0;
        while (true) {
            if (length == out.length) {
                out = Arrays.copyOf(out, out.length * 2);
            }
            int count = deflater.deflate(out, length, out.length - length, Deflater.SYNC_FLUSH);
            length += count;
            if (length < out.length && !message.hasRemaining()) {
                break;
            }
        }
        if (resetAfterEachMessage) {
            deflater.reset();
        }
        return Arrays.copyOf(out, length - TAIL_LENGTH);
    }

    @Override
    public void close() {
        if (deflater != null) {
            deflater.end();
        }
    }
}
