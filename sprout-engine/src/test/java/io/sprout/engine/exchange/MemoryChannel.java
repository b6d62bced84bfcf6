package io.sprout.engine.exchange;

import io.sprout.engine.TlsDetails;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A {@link ConnectionChannel} without a socket: reads what the client is scripted to send (then end of stream) and
 * keeps what the server writes. Readiness tasks run at once, as on a blocking socket.
 */
final class MemoryChannel implements ConnectionChannel {

    private static final InetSocketAddress ADDRESS = new InetSocketAddress(InetAddress.getLoopbackAddress(), 8080);

    private final ByteBuffer input;
    private final ByteArrayOutputStream output = new ByteArrayOutputStream();
    private final CountDownLatch cutShort = new CountDownLatch(1);
    private boolean reset;

    MemoryChannel(String clientSends) {
        this.input = ByteBuffer.wrap(clientSends.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** Everything the server has written, as text. */
    String written() {
        return output.toString(StandardCharsets.ISO_8859_1);
    }

    @Override
    public int read(ByteBuffer dst, long timeoutMillis) {
        if (!input.hasRemaining()) {
            return -1;
        }
        int count = Math.min(dst.remaining(), input.remaining());
        dst.put(input.slice(input.position(), count));
        input.position(input.position() + count);
        return count;
    }

    /** From now on every write fails, as on a socket the client has reset. */
    MemoryChannel resetByClient() {
        reset = true;
        return this;
    }

    @Override
    public void write(ByteBuffer src) throws IOException {
        if (reset) {
            throw new IOException("Connection reset by peer");
        }
        int count = src.remaining();
        output.write(src.array(), src.arrayOffset() + src.position(), count);
        src.position(src.limit());
    }

    @Override
    public int writeNow(ByteBuffer src) throws IOException {
        int count = src.remaining();
        write(src);
        return count;
    }

    @Override
    public void whenReadable(long deadlineNanos, Runnable task) {
        task.run();
    }

    @Override
    public void whenWritable(long deadlineNanos, Runnable task) {
        task.run();
    }

    /** Reads never wait here: there is nothing to cut short, only the request to record. */
    @Override
    public void cutReadShort() {
        cutShort.countDown();
    }

    /** Waits up to {@code seconds} for a {@link #cutReadShort()}; whether one came. */
    boolean awaitCutShort(long seconds) throws InterruptedException {
        return cutShort.await(seconds, TimeUnit.SECONDS);
    }

    @Override
    public void abort() {
        // Nothing to close: the tests read what was written so far.
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return ADDRESS;
    }

    @Override
    public InetSocketAddress localAddress() {
        return ADDRESS;
    }

    /** A plaintext connection. */
    @Override
    public TlsDetails tls() {
        return null;
    }
}
