package io.sprout.engine.tls;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;

/**
 * The server's end of an in-memory connection, non-blocking like a socket channel: reads take what the client has
 * sent (0 when nothing), writes take at most {@code window} bytes per call and only as much as the client has
 * room for, so partial writes happen on purpose. Single-threaded, for unit tests.
 */
final class MemorySocket implements ByteChannel {

    private final ByteBuffer fromClient = ByteBuffer.allocate(1 << 22).flip();
    private final ByteBuffer toClient;
    private final int window;
    private boolean clientClosed;
    private boolean open = true;

    /**
     * @param window the most bytes one write takes
     * @param clientBuffer how many bytes the client side buffers before writes return 0
     */
    MemorySocket(int window, int clientBuffer) {
        this.window = window;
        this.toClient = ByteBuffer.allocate(clientBuffer);
    }

    /** The client sends {@code bytes}. */
    void clientSends(ByteBuffer bytes) {
        fromClient.compact().put(bytes).flip();
    }

    /** The client closes its side. */
    void clientCloses() {
        clientClosed = true;
    }

    /** The client takes everything the server wrote so far, into {@code into} (write mode). */
    void clientReceives(ByteBuffer into) {
        toClient.flip();
        int count = Math.min(into.remaining(), toClient.remaining());
        into.put(into.position(), toClient, toClient.position(), count);
        into.position(into.position() + count);
        toClient.position(toClient.position() + count);
        toClient.compact();
    }

    /** Bytes the server wrote that the client has not taken. */
    int pendingForClient() {
        return toClient.position();
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        if (!fromClient.hasRemaining()) {
            return clientClosed ? -1 : 0;
        }
        int count = Math.min(dst.remaining(), fromClient.remaining());
        dst.put(dst.position(), fromClient, fromClient.position(), count);
        dst.position(dst.position() + count);
        fromClient.position(fromClient.position() + count);
        return count;
    }

    @Override
    public int write(ByteBuffer src) {
        int count = Math.min(Math.min(window, src.remaining()), toClient.remaining());
        toClient.put(toClient.position(), src, src.position(), count);
        toClient.position(toClient.position() + count);
        src.position(src.position() + count);
        return count;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public void close() {
        open = false;
    }
}
