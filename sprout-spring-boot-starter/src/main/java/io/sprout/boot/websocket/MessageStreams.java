package io.sprout.boot.websocket;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.ByteBuffer;

/**
 * {@code getSendStream()} and {@code getSendWriter()}: one message written in pieces. What is written goes out as
 * fragments of at most {@link #FRAGMENT} units, so a long message never sits whole in memory; {@code close()} sends
 * the last fragment. The first fragment waits for a second write or the close, so a short message is one frame.
 */
final class MessageStreams {

    static final int FRAGMENT = 8192;

    private MessageStreams() {
    }

    static final class Binary extends OutputStream {

        private final Sender sender;
        private final byte[] buffer = new byte[FRAGMENT];
        private int count;
        private boolean closed;

        Binary(Sender sender) {
            this.sender = sender;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            if (closed) {
                throw new IOException("The message stream is closed");
            }
            while (length > 0) {
                if (count == buffer.length) {
                    // The engine copies what a send hands it, so the buffer is free again once the call returns.
                    Remote.await(sender.binary(ByteBuffer.wrap(buffer, 0, count), false));
                    count = 0;
                }
                int taken = Math.min(length, buffer.length - count);
                System.arraycopy(bytes, offset, buffer, count, taken);
                count += taken;
                offset += taken;
                length -= taken;
            }
        }

        @Override
        public void close() throws IOException {
            if (!closed) {
                closed = true;
                Remote.await(sender.binary(ByteBuffer.wrap(buffer, 0, count), true));
            }
        }
    }

    static final class Text extends Writer {

        private final Sender sender;
        private final StringBuilder buffer = new StringBuilder();
        private boolean closed;

        Text(Sender sender) {
            this.sender = sender;
        }

        @Override
        public void write(char[] chars, int offset, int length) throws IOException {
            if (closed) {
                throw new IOException("The message writer is closed");
            }
            buffer.append(chars, offset, length);
            while (buffer.length() > FRAGMENT) {
                int end = FRAGMENT;
                // Never split a surrogate pair across two fragments: each must be valid UTF-8 on its own.
                if (Character.isHighSurrogate(buffer.charAt(end - 1))) {
                    end--;
                }
                Remote.await(sender.text(buffer.substring(0, end), false));
                buffer.delete(0, end);
            }
        }

        /** Fragments are sent as the buffer fills; a flush in the middle of a message has nothing to add. */
        @Override
        public void flush() {
            // Intentionally empty: see the Javadoc.
        }

        @Override
        public void close() throws IOException {
            if (!closed) {
                closed = true;
                Remote.await(sender.text(buffer.toString(), true));
            }
        }
    }
}
