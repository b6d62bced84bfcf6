package io.sprout.engine.websocket;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.Deflater;

/**
 * The sending half of {@code permessage-deflate} (RFC 7692 §7.2.1): each message is compressed with a sync flush
 * and sent without the trailing {@code 00 00 FF FF}; the window is kept across messages unless
 * {@code server_no_context_takeover} was agreed. Messages shorter than {@link #MIN_COMPRESSED_LENGTH} are not worth
 * it and go out uncompressed. Used by one thread at a time; {@link #close()} frees the native deflater.
 */
final class MessageDeflater implements AutoCloseable {

    private static final int TAIL_LENGTH = 4;

    /**
     * The shortest message compressed, in bytes. A message below it fits one TCP segment either way, so compressing
     * it saves no packet, yet costs the CPU of a deflate call and, for the first one, a native deflater of about
     * 256 kB per connection: a broadcast of 64-byte messages to 10,000 sessions spent a third of its time creating
     * and running deflaters. RFC 7692 marks compression per message (RSV1 on its first frame), so the sender may
     * leave one uncompressed, and no window (ours or the client's) sees it. OkHttp draws the same line at 1,024.
     */
    static final int MIN_COMPRESSED_LENGTH = 1024;

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

    /** Whether a whole message of {@code length} bytes is sent compressed (see {@link #MIN_COMPRESSED_LENGTH}). */
    static boolean worthCompressing(int length) {
        return length >= MIN_COMPRESSED_LENGTH;
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
