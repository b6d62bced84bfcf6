package io.sprout.boot.servlet.http;

import io.sprout.boot.servlet.Unsupported;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;

import java.io.IOException;
import java.io.InputStream;

/** The request body as a blocking {@link ServletInputStream} over the engine's body stream. */
final class RequestBody extends ServletInputStream {

    private final InputStream in;
    private boolean finished;

    RequestBody(InputStream in) {
        this.in = in;
    }

    @Override
    public int read() throws IOException {
        int b = in.read();
        finished |= b < 0;
        return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        int n = in.read(buffer, offset, length);
        finished |= n < 0;
        return n;
    }

    @Override
    public int available() throws IOException {
        return in.available();
    }

    @Override
    public boolean isFinished() {
        return finished;
    }

    /** Always ready: reads block until bytes arrive. */
    @Override
    public boolean isReady() {
        return true;
    }

    @Override
    public void setReadListener(ReadListener listener) {
        throw Unsupported.nonBlockingIo();
    }
}
