package io.sprout.engine.exchange;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Where a body encoding (the servlet layer's gzip) writes: back into the response body's framing, as any body
 * bytes, and a flush of the encoding is a send. Closing it does nothing: the response body ends the framing itself,
 * after the encoding has written its last bytes.
 */
final class EncoderSink extends OutputStream {

    /** Sends what the response body holds. */
    @FunctionalInterface
    interface Send {
        void send() throws IOException;
    }

    private final UnsentOutput.Framer framer;
    private final Send send;

    EncoderSink(UnsentOutput.Framer framer, Send send) {
        this.framer = framer;
        this.send = send;
    }

    @Override
    public void write(int b) throws IOException {
        framer.write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] src, int offset, int length) throws IOException {
        framer.write(src, offset, length);
    }

    @Override
    public void flush() throws IOException {
        send.send();
    }

    @Override
    public void close() {
        // See the class comment: the framing ends with the response, not with the encoding.
    }
}
