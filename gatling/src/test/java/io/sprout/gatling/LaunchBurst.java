package io.sprout.gatling;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * ColdStart's burst measured by {@link LaunchLoad}: the moment the server first answers, {@code users} new
 * connections open at once, each sends one GET and reads its answer; each one's time runs from its connect to the
 * end of its answer, as Gatling times a user on a new connection.
 * <p>
 * Why beside Gatling's ColdStart: a fresh Gatling JVM pays for its own cold start in the burst. Against a server
 * warmed by 15 s of wrk, ColdStart's 2,000 users took 989 ms at the median (p99 1,093 ms) on Sprout, where this
 * client's p99 was under 250 ms; the burst's times say more about the client than the server there.
 */
final class LaunchBurst {

    private final InetSocketAddress address;

    private final byte[] request;

    private final long[] millis;

    private int answered;

    private int errors;

    private int open;

    LaunchBurst(InetSocketAddress address, byte[] request, int users) {
        this.address = address;
        this.request = request;
        this.millis = new long[users];
    }

    /** Opens every connection of the burst, registered on the load's selector. */
    void start(Selector selector) {
        for (int i = 0; i < this.millis.length; i++) {
            new User().connect(selector);
        }
    }

    /** {@code burst users=… answered=… errors=… p50-ms=… p99-ms=… max-ms=…}; a user not answered by now is an error. */
    String report() {
        long[] times = Arrays.copyOf(this.millis, this.answered);
        Arrays.sort(times);
        return String.format("burst users=%d answered=%d errors=%d p50-ms=%s p99-ms=%s max-ms=%s", this.millis.length,
                this.answered, this.errors + this.open, percentile(times, 50), percentile(times, 99),
                times.length == 0 ? "none" : times[times.length - 1]);
    }

    private static String percentile(long[] sorted, int percent) {
        if (sorted.length == 0) {
            return "none";
        }
        return String.valueOf(sorted[Math.max(0, (int) Math.ceil(percent / 100.0 * sorted.length) - 1)]);
    }

    /** One user: a new connection, one request, its answer, closed. */
    final class User implements LaunchLoad.Ready {

        private final ByteBuffer in = ByteBuffer.allocate(16 * 1024);

        private SocketChannel channel;

        private long startNanos;

        void connect(Selector selector) {
            LaunchBurst.this.open++;
            this.startNanos = System.nanoTime();
            try {
                this.channel = SocketChannel.open();
                this.channel.configureBlocking(false);
                if (this.channel.connect(LaunchBurst.this.address)) {
                    send(selector, null);
                }
                else {
                    this.channel.register(selector, SelectionKey.OP_CONNECT, this);
                }
            }
            catch (IOException ex) {
                end(false);
            }
        }

        @Override
        public void onReady(Selector selector, SelectionKey key) {
            try {
                if (key.isConnectable()) {
                    this.channel.finishConnect();
                    send(selector, key);
                }
                else if (key.isReadable()) {
                    receive();
                }
            }
            catch (IOException | RuntimeException ex) {
                end(false);
            }
        }

        private void send(Selector selector, SelectionKey key) throws IOException {
            ByteBuffer out = ByteBuffer.wrap(LaunchBurst.this.request);
            this.channel.write(out);
            if (out.hasRemaining()) {
                throw new IOException("a request of " + out.limit() + " bytes did not fit the socket's buffer");
            }
            if (key == null) {
                this.channel.register(selector, SelectionKey.OP_READ, this);
            }
            else {
                key.interestOps(SelectionKey.OP_READ);
            }
        }

        private void receive() throws IOException {
            ResponseFramer.Response response = ResponseFramer.readFrom(this.channel, this.in);
            if (response != null) {
                end(response.status() == 200);
            }
        }

        private void end(boolean ok) {
            if (this.channel == null) {
                return;
            }
            LaunchBurst.this.open--;
            if (ok) {
                LaunchBurst.this.millis[LaunchBurst.this.answered++] =
                        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - this.startNanos);
            }
            else {
                LaunchBurst.this.errors++;
            }
            try {
                this.channel.close();
            }
            catch (IOException ex) {
                // The answer is counted; nothing left to tell.
            }
            this.channel = null;
        }

    }

}
