package io.sprout.engine.contract;

import io.sprout.engine.RequestHandler;
import io.sprout.engine.ServerConfig;
import io.sprout.engine.WebSocket;
import io.sprout.engine.WebSocketConfig;
import io.sprout.engine.WebSocketHandler;
import io.sprout.engine.websocket.ClientFrames;
import io.sprout.engine.websocket.WebSocketUpgrade;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.net.URI;
import java.net.http.HttpClient;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.zip.Deflater;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * WebSocket over real sockets in every combination: the JDK's client for what a well-behaved client does, a raw
 * peer for broken frames and compression. Each test ends with the leak checks (no connection, buffer or request
 * left).
 */
@ParameterizedClass(name = "{0}")
@EnumSource(Combination.class)
class WebSocketIT {

    /** A queue bound below the largest message: one message larger than it is still sent when nothing waits. */
    private static final WebSocketConfig CONFIG = WebSocketConfig.DEFAULT.withMaxMessageSizes(16 << 20, 16 << 20)
            .withMaxQueuedBytes(1 << 20);

    @Parameter
    Combination combination;

    /** What the server's handler saw, as text: {@code open}, {@code text:…}, {@code close:<code>}, {@code error:…}. */
    private final List<String> serverSaw = new CopyOnWriteArrayList<>();
    private final CountDownLatch serverClosed = new CountDownLatch(1);

    /**
     * Echoes messages; "close please" makes the server close with 1000 "done", "idle please" gives the connection
     * an idle timeout of its own.
     */
    private final WebSocketHandler echo = new WebSocketHandler() {
        @Override
        public void onOpen(WebSocket socket) {
            serverSaw.add("open");
        }

        @Override
        public void onText(WebSocket socket, String message) {
            serverSaw.add("text:" + message);
            if (message.equals("close please")) {
                socket.close(1000, "done");
            } else if (message.equals("idle please")) {
                socket.idleTimeout(Duration.ofMillis(300));
            } else {
                socket.sendText(message, true);
            }
        }

        @Override
        public void onBinary(WebSocket socket, ByteBuffer message) {
            serverSaw.add("binary:" + message.remaining());
            socket.sendBinary(message, true).join();
        }

        @Override
        public void onClose(WebSocket socket, int code, String reason) {
            serverSaw.add("close:" + code);
            serverClosed.countDown();
        }

        @Override
        public void onError(WebSocket socket, Throwable failure) {
            serverSaw.add("error:" + failure.getClass().getSimpleName());
            // As applications write it: a failure closes the socket with 1011 unless it is closed already.
            if (socket.isOpen()) {
                socket.close(1011, "error");
            }
        }
    };

    private RunningServer start(WebSocketConfig config) {
        return start(config, UnaryOperator.identity());
    }

    private RunningServer start(WebSocketConfig config, UnaryOperator<ServerConfig.Builder> server) {
        RequestHandler handler = (request, response) -> {
            String rejection = WebSocketUpgrade.rejection(request);
            if (rejection != null) {
                WebSocketUpgrade.reject(response, rejection);
                return;
            }
            WebSocketUpgrade.accept(request, response, config, null, echo);
        };
        return RunningServer.start(combination, handler, server);
    }

    @Test
    void echoesWholeAndFragmentedMessagesAndClosesCleanlyWithTheJdkClient() throws Exception {
        try (RunningServer server = start(CONFIG)) {
            Client client = new Client();
            java.net.http.WebSocket socket = HttpClient.newHttpClient().newWebSocketBuilder()
                    .buildAsync(URI.create("ws://127.0.0.1:" + server.port() + "/echo"), client)
                    .get(10, TimeUnit.SECONDS);
            socket.sendText("hello", true).get(10, TimeUnit.SECONDS);
            assertThat(client.next()).isEqualTo("text:hello");
            socket.sendText("frag", false).get(10, TimeUnit.SECONDS);
            socket.sendText("mented ✓", true).get(10, TimeUnit.SECONDS);
            assertThat(client.next()).isEqualTo("text:fragmented ✓");
            // Larger than the socket takes at once: the rest must follow when the socket drains.
            socket.sendBinary(ByteBuffer.wrap(new byte[16 << 20]), true).get(10, TimeUnit.SECONDS);
            assertThat(client.next()).isEqualTo("binary:" + (16 << 20));
            socket.sendPing(ByteBuffer.wrap("ping?".getBytes(StandardCharsets.UTF_8))).get(10, TimeUnit.SECONDS);
            assertThat(client.next()).isEqualTo("pong:ping?");
            // Between messages an open WebSocket holds no pooled buffer: idle sessions cost no I/O buffers.
            // (The pong may arrive a moment before its writer has returned the buffer.)
            Await.until(() -> server.stats().buffersLeased() == 0, "no pooled buffer leased by an idle WebSocket");
            socket.sendClose(1000, "bye").get(10, TimeUnit.SECONDS);
            assertThat(client.next()).isEqualTo("close:1000");
            assertThat(serverClosed.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(serverSaw).containsExactly("open", "text:hello", "text:fragmented ✓", "binary:" + (16 << 20),
                    "close:1000");
        }
    }

    @Test
    void echoesOverWssWithTheJdkClient() throws Exception {
        try (RunningServer server = start(CONFIG, TestTls.https())) {
            Client client = new Client();
            HttpClient https = HttpClient.newBuilder().sslContext(TestTls.client()).build();
            java.net.http.WebSocket socket = https.newWebSocketBuilder()
                    .buildAsync(URI.create("wss://localhost:" + server.port() + "/echo"), client)
                    .get(10, TimeUnit.SECONDS);
            socket.sendText("hello over TLS", true).get(10, TimeUnit.SECONDS);
            assertThat(client.next()).isEqualTo("text:hello over TLS");
            socket.sendBinary(ByteBuffer.wrap(new byte[4 << 20]), true).get(10, TimeUnit.SECONDS);
            assertThat(client.next()).isEqualTo("binary:" + (4 << 20));
            socket.sendClose(1000, "bye").get(10, TimeUnit.SECONDS);
            assertThat(client.next()).isEqualTo("close:1000");
            assertThat(serverClosed.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(serverSaw).containsExactly("open", "text:hello over TLS", "binary:" + (4 << 20), "close:1000");
            https.close();
        }
    }

    @Test
    void theServerClosesAndTheClientAnswers() throws Exception {
        try (RunningServer server = start(CONFIG)) {
            Client client = new Client();
            java.net.http.WebSocket socket = HttpClient.newHttpClient().newWebSocketBuilder()
                    .buildAsync(URI.create("ws://127.0.0.1:" + server.port() + "/echo"), client)
                    .get(10, TimeUnit.SECONDS);
            socket.sendText("close please", true);
            assertThat(client.next()).isEqualTo("close:1000");
            assertThat(serverClosed.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(serverSaw).endsWith("close:1000");
        }
    }

    @Test
    void rejectsAnInvalidHandshakeWith400NamingVersion13() throws Exception {
        try (RunningServer server = start(CONFIG);
                WebSocketPeer peer = WebSocketPeer.handshake(server.port(), "/echo", "Sec-WebSocket-Version: 8\r\n")) {
            String head = peer.head();
            assertThat(head).startsWith("HTTP/1.1 400 ").contains("Sec-WebSocket-Version: 13");
        }
    }

    @Test
    void failsBrokenFramesWithTheirCloseCodeAndClosesTheConnection() throws Exception {
        WebSocketConfig small = CONFIG.withMaxMessageSizes(1000, 1000);
        List<byte[]> broken = List.of(
                new ClientFrames().frame(true, 0, 0x1, ClientFrames.utf8("unmasked"), false).bytes(),
                new ClientFrames().frame(true, 0, 0x1, new byte[] {'a', (byte) 0xC0, (byte) 0xAF}).bytes(),
                new ClientFrames().frame(true, 0, 0x1, new byte[1001]).bytes(),
                new ClientFrames().frame(true, 0, 0x8, new byte[] {3}).bytes(),
                new ClientFrames().frame(true, 0, 0x8, ClientFrames.closePayload(999, new byte[0])).bytes(),
                new ClientFrames().frame(true, 0, 0x8, ClientFrames.closePayload(1000, new byte[] {(byte) 0xFF}))
                        .bytes());
        int[] codes = {1002, 1007, 1009, 1002, 1002, 1007};
        try (RunningServer server = start(small)) {
            for (int i = 0; i < broken.size(); i++) {
                try (WebSocketPeer peer = WebSocketPeer.handshake(server.port(), "/echo",
                        "Sec-WebSocket-Version: 13\r\n")) {
                    assertThat(peer.head()).startsWith("HTTP/1.1 101 ");
                    peer.send(broken.get(i));
                    WebSocketPeer.Frame close = peer.frame();
                    assertThat(close.opcode()).isEqualTo(0x8);
                    assertThat(close.closeCode()).isEqualTo(codes[i]);
                    assertThat(peer.closedByServer()).isTrue();
                }
            }
            // The handler heard of each failure only once the engine had closed with the RFC's code: its own
            // close(1011) in onError changed nothing, and onClose reports the code sent.
            Await.until(() -> serverSaw.stream().filter(e -> e.startsWith("close:")).count() == codes.length,
                    "every failed connection closed");
            List<String> failures = serverSaw.stream().filter(e -> !e.equals("open")).toList();
            List<String> expected = new java.util.ArrayList<>();
            for (int code : codes) {
                expected.add("error:CloseException");
                expected.add("close:" + code);
            }
            assertThat(failures).isEqualTo(expected);
        }
    }

    @Test
    void sendsAShortMessageUncompressedEvenWithPermessageDeflate() throws Exception {
        try (RunningServer server = start(CONFIG);
                WebSocketPeer peer = WebSocketPeer.handshake(server.port(), "/echo",
                        "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Extensions: permessage-deflate\r\n")) {
            assertThat(peer.head()).contains("Sec-WebSocket-Extensions: permessage-deflate\r\n");
            String message = "short ".repeat(10);
            peer.send(new ClientFrames().frame(true, 0, 0x1, ClientFrames.utf8(message)).bytes());
            WebSocketPeer.Frame echoed = peer.frame();
            assertThat(echoed.compressed()).isFalse();
            assertThat(new String(echoed.payload(), StandardCharsets.UTF_8)).isEqualTo(message);
            peer.send(new ClientFrames().frame(true, 0, 0x8, ClientFrames.closePayload(1000, new byte[0])).bytes());
            assertThat(peer.frame().closeCode()).isEqualTo(1000);
            assertThat(peer.closedByServer()).isTrue();
        }
    }

    @Test
    void compressesBothWaysWhenTheClientOffersPermessageDeflate() throws Exception {
        try (RunningServer server = start(CONFIG);
                WebSocketPeer peer = WebSocketPeer.handshake(server.port(), "/echo",
                        "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Extensions: permessage-deflate; "
                                + "client_max_window_bits\r\n")) {
            assertThat(peer.head()).startsWith("HTTP/1.1 101 ")
                    .contains("Sec-WebSocket-Extensions: permessage-deflate\r\n");
            Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
            String message = "compressible ".repeat(100);
            peer.send(new ClientFrames().frame(true, 4, 0x1,
                    ClientFrames.compressed(deflater, ClientFrames.utf8(message))).bytes());
            deflater.end();
            WebSocketPeer.Frame echoed = peer.frame();
            assertThat(echoed.compressed()).isTrue();
            assertThat(echoed.payload().length).isLessThan(message.length() / 4);
            java.util.zip.Inflater inflater = new java.util.zip.Inflater(true);
            inflater.setInput(ByteBuffer.wrap(concat(echoed.payload(), new byte[] {0, 0, (byte) 0xFF, (byte) 0xFF})));
            byte[] out = new byte[message.length() * 2];
            int length = inflater.inflate(out);
            inflater.end();
            assertThat(new String(out, 0, length, StandardCharsets.UTF_8)).isEqualTo(message);
            peer.send(new ClientFrames().frame(true, 0, 0x8, ClientFrames.closePayload(1000, new byte[0])).bytes());
            assertThat(peer.frame().closeCode()).isEqualTo(1000);
            assertThat(peer.closedByServer()).isTrue();
        }
    }

    @Test
    void aClientVanishingMidFrameLeavesNothingBehind() throws Exception {
        try (RunningServer server = start(CONFIG)) {
            try (WebSocketPeer peer = WebSocketPeer.handshake(server.port(), "/echo",
                    "Sec-WebSocket-Version: 13\r\n")) {
                assertThat(peer.head()).startsWith("HTTP/1.1 101 ");
                byte[] frame = new ClientFrames().frame(true, 0, 0x2, new byte[10_000]).bytes();
                peer.send(java.util.Arrays.copyOf(frame, 5_000));
            }
            assertThat(serverClosed.await(20, TimeUnit.SECONDS)).isTrue();
            assertThat(serverSaw).endsWith("close:1006");
        }
    }

    @Test
    void anIdleConnectionIsClosedWith1001() throws Exception {
        try (RunningServer server = start(CONFIG.withIdleTimeout(Duration.ofMillis(300)))) {
            Client client = new Client();
            HttpClient.newHttpClient().newWebSocketBuilder()
                    .buildAsync(URI.create("ws://127.0.0.1:" + server.port() + "/echo"), client)
                    .get(10, TimeUnit.SECONDS);
            assertThat(client.next()).isEqualTo("close:1001");
            assertThat(serverClosed.await(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void anIdleTimeoutSetOnTheOpenConnectionReplacesTheConfiguredOne() throws Exception {
        try (RunningServer server = start(CONFIG)) {
            Client client = new Client();
            java.net.http.WebSocket socket = HttpClient.newHttpClient().newWebSocketBuilder()
                    .buildAsync(URI.create("ws://127.0.0.1:" + server.port() + "/echo"), client)
                    .get(10, TimeUnit.SECONDS);
            socket.sendText("idle please", true).get(10, TimeUnit.SECONDS);
            assertThat(client.next()).isEqualTo("close:1001");
            assertThat(serverClosed.await(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void sendsToAClientThatDoesNotReadFailOnceTheQueueIsFull() throws Exception {
        CompletableFuture<Throwable> refused = new CompletableFuture<>();
        RequestHandler flooding = (request, response) -> WebSocketUpgrade.accept(request, response,
                CONFIG.withMaxQueuedBytes(1 << 20), null, new WebSocketHandler() {
                    @Override
                    public void onOpen(WebSocket socket) {
                        Thread.ofVirtual().start(() -> {
                            ByteBuffer chunk = ByteBuffer.wrap(new byte[65_536]);
                            for (int i = 0; i < 100_000 && !refused.isDone(); i++) {
                                socket.sendBinary(chunk, true).whenComplete((sent, failure) -> {
                                    if (failure != null) {
                                        refused.complete(failure);
                                    }
                                });
                            }
                        });
                    }

                    @Override
                    public void onText(WebSocket socket, String message) {
                    }

                    @Override
                    public void onBinary(WebSocket socket, ByteBuffer message) {
                    }
                });
        try (RunningServer server = RunningServer.start(combination, flooding,
                config -> config.timeouts(io.sprout.engine.Timeouts.DEFAULT.withWrite(Duration.ofSeconds(2))));
                WebSocketPeer peer = WebSocketPeer.handshake(server.port(), "/flood", "Sec-WebSocket-Version: 13\r\n")) {
            assertThat(peer.head()).startsWith("HTTP/1.1 101 ");
            assertThat(refused.get(30, TimeUnit.SECONDS)).isInstanceOf(java.io.IOException.class);
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] joined = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, joined, a.length, b.length);
        return joined;
    }

    /** The JDK client's listener, recording what arrives as text: {@code text:…}, {@code binary:<n>}, … */
    private static final class Client implements java.net.http.WebSocket.Listener {

        private final BlockingQueue<String> events = new LinkedBlockingQueue<>();
        private final StringBuilder text = new StringBuilder();
        private int binary;

        String next() throws InterruptedException {
            String event = events.poll(20, TimeUnit.SECONDS);
            assertThat(event).as("an event within 20 s").isNotNull();
            return event;
        }

        @Override
        public CompletionStage<?> onText(java.net.http.WebSocket socket, CharSequence data, boolean last) {
            text.append(data);
            if (last) {
                events.add("text:" + text);
                text.setLength(0);
            }
            socket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onBinary(java.net.http.WebSocket socket, ByteBuffer data, boolean last) {
            binary += data.remaining();
            if (last) {
                events.add("binary:" + binary);
                binary = 0;
            }
            socket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onPong(java.net.http.WebSocket socket, ByteBuffer message) {
            events.add("pong:" + StandardCharsets.UTF_8.decode(message));
            socket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(java.net.http.WebSocket socket, int statusCode, String reason) {
            events.add("close:" + statusCode);
            return null;
        }

        @Override
        public void onError(java.net.http.WebSocket socket, Throwable error) {
            events.add("error:" + error);
        }
    }
}
