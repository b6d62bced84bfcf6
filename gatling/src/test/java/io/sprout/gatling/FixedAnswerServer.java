package io.sprout.gatling;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;

/**
 * A loopback server that answers every request head with the same small 200, for {@link LaunchLoad} to warm its own
 * code against before the measured server answers: a client whose response path is still interpreted would time
 * itself in the first seconds after that answer, not the server. Knows nothing of HTTP but where a head ends (one
 * request in flight per connection, no bodies), so it costs the client's CPU little.
 */
final class FixedAnswerServer implements AutoCloseable {

    private static final byte[] RESPONSE = ("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 13\r\n\r\n"
        + "Hello, World!").getBytes(StandardCharsets.ISO_8859_1);

    private final ServerSocketChannel server;

    private final Selector selector;

    private final Thread thread;

    FixedAnswerServer() throws IOException {
        this.server = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        this.server.configureBlocking(false);
        this.selector = Selector.open();
        this.server.register(this.selector, SelectionKey.OP_ACCEPT);
        this.thread = Thread.ofPlatform().name("fixed-answer-server").daemon().start(this::serve);
    }

    int port() {
        return this.server.socket().getLocalPort();
    }

    private void serve() {
        ByteBuffer in = ByteBuffer.allocate(16 * 1024);
        try {
            while (!Thread.currentThread().isInterrupted()) {
                this.selector.select();
                for (SelectionKey key : this.selector.selectedKeys()) {
                    if (key.isAcceptable()) {
                        accept();
                    }
                    else if (key.isReadable()) {
                        answer(key, in);
                    }
                }
                this.selector.selectedKeys().clear();
            }
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    private void accept() throws IOException {
        SocketChannel channel;
        while ((channel = this.server.accept()) != null) {
            channel.configureBlocking(false);
            channel.register(this.selector, SelectionKey.OP_READ, new int[1]);
        }
    }

    /** Writes one response per head end ({@code \r\n\r\n}) read; the attachment carries a match across reads. */
    private static void answer(SelectionKey key, ByteBuffer in) {
        SocketChannel channel = (SocketChannel) key.channel();
        int[] matched = (int[]) key.attachment();
        try {
            in.clear();
            if (channel.read(in) < 0) {
                channel.close();
                return;
            }
            for (int i = 0; i < in.position(); i++) {
                byte b = in.get(i);
                matched[0] = b == (matched[0] % 2 == 0 ? '\r' : '\n') ? matched[0] + 1 : (b == '\r' ? 1 : 0);
                if (matched[0] == 4) {
                    matched[0] = 0;
                    ByteBuffer out = ByteBuffer.wrap(RESPONSE);
                    while (out.hasRemaining()) {
                        channel.write(out);
                    }
                }
            }
        }
        catch (IOException ex) {
            // The client closed its warm-up connection: nothing to answer.
            key.cancel();
        }
    }

    @Override
    public void close() throws IOException {
        this.thread.interrupt();
        this.selector.wakeup();
        try {
            this.thread.join();
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        for (SelectionKey key : this.selector.keys()) {
            key.channel().close();
        }
        this.selector.close();
    }

}
