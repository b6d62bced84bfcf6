package io.sprout.gatling;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The load of the {@code warmup} preset: started right after the server's JVM, it keeps {@code connections}
 * (default 50) keep-alive connections to {@code 127.0.0.1:port} busy with {@code GET path}, one request in flight
 * each, until {@code seconds} (default 40) after the launch, and counts the answers in 1 s windows from the launch.
 * <p>
 * Until the server first answers, a failed connect or a connection closed without an answer only means "not ready":
 * the connection tries again {@code retryMillis} (default 10) later. After the first answer every such failure, and
 * every status other than 200, is an error of its window. One thread and one selector: at tens of thousands of
 * requests per second a thread per connection would spend the load CPU on switching.
 * <p>
 * With {@code burst} above 0, that many more users arrive on new connections the moment of the first answer, one
 * request each ({@link LaunchBurst}): ColdStart's burst, timed by a client that is not itself cold.
 * <p>
 * Until the server answers, the client also warms its own code on another thread against a loopback server of fixed
 * answers ({@link SelfWarmUp}, {@code selfWarmMillis}, default 2500), so that its first seconds of answers time the
 * server, not the client's JIT.
 * <p>
 * Output, read by {@code gatling/scripts/launchresults.py}: {@code first-attempt-ms=}, {@code self-warm-up-answers=},
 * {@code first-answer-ms=}, one {@code window second=S ok=N errors=E} line per window, the {@code burst …} line, and
 * {@code launch-load done} last. Properties: {@code port}, {@code launchEpochMs} (when the server's JVM was launched),
 * {@code connections}, {@code seconds}, {@code path}, {@code retryMillis}, {@code burst} (0), {@code selfWarmMillis}.
 */
public final class LaunchLoad {

    /** A connection's part of the selector loop. */
    interface Ready {
        void onReady(Selector selector, SelectionKey key);
    }

    private final InetSocketAddress address;

    private final byte[] request;

    private final long launchNanos;

    private final long endNanos;

    private final long retryNanos;

    private final int[] ok;

    private final int[] errors;

    /** Volatile for the self warm-up's thread, which stops at the first answer. */
    private volatile long firstAnswerNanos = -1;

    /** Ends the run before its time: the self warm-up's, at the measured server's first answer. */
    private BooleanSupplier stopEarly = () -> false;

    private long notReady;

    private LaunchBurst burst;

    private LaunchLoad(int port, String path, long launchEpochMs, int seconds, int retryMillis) {
        this.address = new InetSocketAddress("127.0.0.1", port);
        this.request = ("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nAccept: */*\r\n\r\n")
            .getBytes(StandardCharsets.ISO_8859_1);
        this.launchNanos = System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(System.currentTimeMillis() - launchEpochMs);
        this.endNanos = this.launchNanos + TimeUnit.SECONDS.toNanos(seconds);
        this.retryNanos = TimeUnit.MILLISECONDS.toNanos(retryMillis);
        this.ok = new int[seconds];
        this.errors = new int[seconds];
    }

    public static void main(String[] args) throws IOException {
        // Plain system properties, not LoadSettings: this client needs nothing of Gatling on its class path.
        int seconds = Integer.getInteger("seconds", 40);
        int connections = Integer.getInteger("connections", 50);
        String path = System.getProperty("path", "/benchmark/hello");
        LaunchLoad load = new LaunchLoad(Integer.getInteger("port", 8080), path,
                Long.parseLong(System.getProperty("launchEpochMs")), seconds, Integer.getInteger("retryMillis", 10));
        System.out.printf("launch-load connections=%d seconds=%d path=%s%n", connections, seconds, path);
        System.out.printf("first-attempt-ms=%d%n", load.sinceLaunchMillis(System.nanoTime()));
        int burstUsers = Integer.getInteger("burst", 0);
        if (burstUsers > 0) {
            load.burst = new LaunchBurst(load.address, load.request, burstUsers);
        }
        SelfWarmUp warmUp = new SelfWarmUp(load, connections, path, Integer.getInteger("selfWarmMillis", 2500));
        load.run(connections);
        System.out.printf("self-warm-up-answers=%d%n", warmUp.answers());
        load.print();
    }

    /**
     * The client's own warm-up: while the measured server is not yet answering, the same connections' code runs
     * against a {@link FixedAnswerServer} on another thread, for at most {@code millis} and never past the server's
     * first answer. Without it the client's response path would still be interpreted when the server first answers:
     * a fresh client answered at half a warm server's rate in its first second and at 65-87 % in its second, which
     * would count against a server that opened late (its warm-up done before its ports open). 0 turns it off.
     */
    private static final class SelfWarmUp {

        private final Thread thread;

        private int answers;

        SelfWarmUp(LaunchLoad measured, int connections, String path, int millis) {
            this.thread = millis <= 0 ? null : Thread.ofPlatform().name("self-warm-up").start(() -> {
                long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
                try (FixedAnswerServer server = new FixedAnswerServer()) {
                    LaunchLoad warm = new LaunchLoad(server.port(), path, System.currentTimeMillis(),
                            (int) TimeUnit.MILLISECONDS.toSeconds(millis) + 1, measured.retryMillis());
                    warm.stopEarly = () -> System.nanoTime() >= end || measured.firstAnswerNanos >= 0;
                    warm.run(connections);
                    this.answers = warm.answers();
                }
                catch (IOException ex) {
                    throw new UncheckedIOException(ex);
                }
            });
        }

        /** Waits for the warm-up's end; the answers it had from that server. */
        int answers() throws IOException {
            if (this.thread == null) {
                return 0;
            }
            try {
                this.thread.join();
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted waiting for the self warm-up", ex);
            }
            return this.answers;
        }

    }

    private int retryMillis() {
        return (int) TimeUnit.NANOSECONDS.toMillis(this.retryNanos);
    }

    private int answers() {
        int sum = 0;
        for (int count : this.ok) {
            sum += count;
        }
        return sum;
    }

    private void run(int connectionCount) throws IOException {
        try (Selector selector = Selector.open()) {
            List<Connection> connections = new ArrayList<>();
            for (int i = 0; i < connectionCount; i++) {
                Connection connection = new Connection();
                connections.add(connection);
                connection.connect(selector, System.nanoTime());
            }
            boolean burstStarted = false;
            long now;
            while ((now = System.nanoTime()) < this.endNanos && !this.stopEarly.getAsBoolean()) {
                selector.select(Math.max(1, TimeUnit.NANOSECONDS.toMillis(Math.min(this.endNanos - now, this.retryNanos))));
                for (SelectionKey key : selector.selectedKeys()) {
                    ((Ready) key.attachment()).onReady(selector, key);
                }
                selector.selectedKeys().clear();
                if (this.burst != null && !burstStarted && this.firstAnswerNanos >= 0) {
                    burstStarted = true;
                    this.burst.start(selector);
                }
                now = System.nanoTime();
                for (Connection connection : connections) {
                    if (connection.channel == null && now >= connection.retryAt) {
                        connection.connect(selector, now);
                    }
                }
            }
            for (Connection connection : connections) {
                connection.close();
            }
        }
    }

    private void print() {
        System.out.printf("first-answer-ms=%s%n", this.firstAnswerNanos < 0 ? "none" : sinceLaunchMillis(this.firstAnswerNanos));
        System.out.printf("not-ready-attempts=%d%n", this.notReady);
        for (int second = 0; second < this.ok.length; second++) {
            System.out.printf("window second=%d ok=%d errors=%d%n", second, this.ok[second], this.errors[second]);
        }
        if (this.burst != null) {
            System.out.println(this.burst.report());
        }
        System.out.println("launch-load done");
    }

    private long sinceLaunchMillis(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos - this.launchNanos);
    }

    private int window(long nanos) {
        return (int) Math.min(this.ok.length - 1, Math.max(0, TimeUnit.NANOSECONDS.toSeconds(nanos - this.launchNanos)));
    }

    private void answered(int status, long now) {
        if (status == 200 && this.firstAnswerNanos < 0) {
            this.firstAnswerNanos = now;
        }
        if (status == 200) {
            this.ok[window(now)]++;
        }
        else {
            this.errors[window(now)]++;
        }
    }

    private void failed(long now) {
        if (this.firstAnswerNanos < 0) {
            this.notReady++;
        }
        else {
            this.errors[window(now)]++;
        }
    }

    /** One keep-alive connection: connecting, then a request, its response, the next request. */
    private final class Connection implements Ready {

        private final ByteBuffer in = ByteBuffer.allocate(16 * 1024);

        private final ByteBuffer out = ByteBuffer.wrap(LaunchLoad.this.request);

        private SocketChannel channel;

        private SelectionKey key;

        private long retryAt;

        void connect(Selector selector, long now) {
            try {
                this.channel = SocketChannel.open();
                this.channel.configureBlocking(false);
                if (this.channel.connect(LaunchLoad.this.address)) {
                    send(selector);
                }
                else {
                    this.key = this.channel.register(selector, SelectionKey.OP_CONNECT, this);
                }
            }
            catch (IOException ex) {
                drop(now);
            }
        }

        @Override
        public void onReady(Selector selector, SelectionKey key) {
            long now = System.nanoTime();
            try {
                if (key.isConnectable()) {
                    this.channel.finishConnect();
                    send(selector);
                }
                else if (key.isReadable()) {
                    receive(selector, now);
                }
            }
            catch (IOException | RuntimeException ex) {
                // Refused, reset, or a response this framer cannot read: the connection is lost, counted, retried.
                drop(now);
            }
        }

        private void send(Selector selector) throws IOException {
            this.out.clear();
            this.channel.write(this.out);
            if (this.out.hasRemaining()) {
                throw new IOException("a request of " + this.out.limit() + " bytes did not fit the socket's buffer");
            }
            if (this.key == null) {
                this.key = this.channel.register(selector, SelectionKey.OP_READ, this);
            }
            else if (this.key.interestOps() != SelectionKey.OP_READ) {
                this.key.interestOps(SelectionKey.OP_READ);
            }
        }

        private void receive(Selector selector, long now) throws IOException {
            ResponseFramer.Response response = ResponseFramer.readFrom(this.channel, this.in);
            if (response == null) {
                return;
            }
            answered(response.status(), now);
            // One request in flight: nothing can follow the response but the answer to the next request.
            this.in.clear();
            if (response.close()) {
                close();
                connect(selector, now);
            }
            else {
                send(selector);
            }
        }

        private void drop(long now) {
            failed(now);
            close();
            this.retryAt = now + LaunchLoad.this.retryNanos;
        }

        void close() {
            if (this.channel != null) {
                try {
                    this.channel.close();
                }
                catch (IOException ex) {
                    // Closing a lost connection: nothing left to tell.
                }
                this.channel = null;
                this.key = null;
            }
            this.in.clear();
        }

    }

}
