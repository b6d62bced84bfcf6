package io.sprout.engine.websocket;

import java.nio.ByteBuffer;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * The receiving half of {@code permessage-deflate} (RFC 7692 §7.2.2): a message's frames are one raw DEFLATE
 * stream, flushed but not finished, so the inflater gets them as they arrive plus the four bytes
 * {@code 00 00 FF FF} the sender removed, and keeps its window across messages unless the negotiation said
 * {@code client_no_context_takeover}. Corrupt data fails the connection with 1007. Used by one thread at a time;
 * {@link #close()} frees the native inflater.
 */
final class MessageInflater implements AutoCloseable {

    /** What inflated bytes go to; the buffer is only valid during the call. */
    @FunctionalInterface
    interface Sink {
        void accept(ByteBuffer inflated) throws CloseException;
    }

    private static final byte[] REMOVED_TAIL = {0, 0, (byte) 0xFF, (byte) 0xFF};

    private final boolean resetAfterEachMessage;
    /** Created with the first compressed message: an idle connection holds no native inflater. */
    private Inflater inflater;
    private byte[] out;

    /** @param resetAfterEachMessage {@code client_no_context_takeover} was agreed */
    MessageInflater(boolean resetAfterEachMessage) {
        this.resetAfterEachMessage = resetAfterEachMessage;
    }

    /** Inflates one piece of a compressed message, every byte of it. */
    void inflate(ByteBuffer compressed, Sink sink) throws CloseException {
        started();
        inflater.setInput(compressed);
        drain(compressed, sink);
    }

    /** The message's last frame has ended: inflates the removed tail, so everything the sender flushed comes out. */
    void finishMessage(Sink sink) throws CloseException {
        started();
        ByteBuffer tail = ByteBuffer.wrap(REMOVED_TAIL);
        inflater.setInput(tail);
        drain(tail, sink);
        if (resetAfterEachMessage) {
            inflater.reset();
        }
    }

    private void started() {
        if (inflater == null) {
            inflater = new Inflater(true);
            out = new byte[8192];
        }
    }

    private void drain(ByteBuffer input, Sink sink) throws CloseException {
        try {
            while (true) {
                int count = inflater.inflate(out);
                if (count > 0) {
                    sink.accept(ByteBuffer.wrap(out, 0, count));
                } else if (inflater.finished() && input.hasRemaining()) {
                    // The sender ended the stream (a BFINAL block); what follows starts a new one.
                    inflater.reset();
                    inflater.setInput(input);
                } else if (inflater.needsDictionary()) {
                    throw new CloseException(CloseCodes.INVALID_PAYLOAD, "Compressed data asks for a dictionary");
                } else {
                    return;
                }
            }
        } catch (DataFormatException corrupt) {
            throw new CloseException(CloseCodes.INVALID_PAYLOAD, "Corrupt compressed data: " + corrupt.getMessage());
        }
    }

    @Override
    public void close() {
        if (inflater != null) {
            inflater.end();
        }
    }
}
