package io.sprout.engine.contract;

import io.sprout.engine.RequestHandler;
import io.sprout.engine.WebSocket;
import io.sprout.engine.WebSocketConfig;
import io.sprout.engine.WebSocketHandler;
import io.sprout.engine.websocket.WebSocketUpgrade;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.net.URI;
import java.net.http.HttpClient;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Receive flow control: {@link WebSocket#suspendReading()} stops reading the socket, so a client that keeps sending
 * is held back by TCP rather than by the server's memory, and {@link WebSocket#resumeReading()} goes on without
 * losing or reordering anything.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(Combination.class)
class WebSocketReadSuspensionIT {

    private static final int MESSAGE = 65_536;
    /** 64 MiB in all: far more than the kernel buffers between the two ends hold. */
    private static final int MESSAGES = 1_024;
    /** How long a server that reads anyway is given to show it. */
    private static final Duration STAND_STILL = Duration.ofMillis(500);
    private static final WebSocketConfig CONFIG = WebSocketConfig.DEFAULT.withMaxMessageSizes(MESSAGE, MESSAGE);

    @Parameter
    Combination combination;

    /** The first four bytes of every binary message received, in order. */
    private final List<Integer> received = new CopyOnWriteArrayList<>();
    private final CompletableFuture<WebSocket> opened = new CompletableFuture<>();
    private final CompletableFuture<Integer> closed = new CompletableFuture<>();

    private RunningServer start(WebSocketHandler handler) {
        RequestHandler upgrade = (request, response) -> WebSocketUpgrade.accept(request, response, CONFIG, null,
                handler);
        return RunningServer.start(combination, upgrade);
    }

    private java.net.http.WebSocket connect(RunningServer server) {
        return Await.future(HttpClient.newHttpClient().newWebSocketBuilder().buildAsync(
                URI.create("ws://127.0.0.1:" + server.port() + "/"), new java.net.http.WebSocket.Listener() {
                }), "the client connected");
    }

    @Test
    void aSuspendedConnectionIsNotReadSoTheClientIsHeldBackUntilItResumes() {
        AtomicInteger sent = new AtomicInteger();
        try (RunningServer server = start(new Recorder() {
            @Override
            public void onBinary(WebSocket socket, ByteBuffer message) {
                super.onBinary(socket, message);
                if (received.size() == 1) {
                    socket.suspendReading();
                }
            }
        })) {
            java.net.http.WebSocket client = connect(server);
            CompletableFuture<Void> sending = CompletableFuture.runAsync(() -> {
                for (int i = 0; i < MESSAGES; i++) {
                    client.sendBinary(numbered(i), true).join();
                    sent.incrementAndGet();
                }
            });
            Await.until(() -> received.size() == 1, "the first message suspended reading");

            // A read in progress may still deliver a message, but a 64 KiB message does not fit a second one.
            Await.holdsFor(STAND_STILL, () -> received.size() <= 2 && sent.get() < MESSAGES,
                    "the server reads nothing and the client cannot send everything");
            Await.future(opened, "the server's socket").resumeReading();

            Await.future(sending, "the client sent every message");
            Await.until(() -> received.size() == MESSAGES, "every message arrived");
            assertThat(received).isEqualTo(indices(MESSAGES));
            closeCleanly(client);
        }
    }

    @Test
    void suspendingAtEveryMessageAndResumingFromAnotherThreadLosesAndReordersNothing() {
        int count = 2_000;
        try (RunningServer server = start(new Recorder() {
            @Override
            public void onBinary(WebSocket socket, ByteBuffer message) {
                super.onBinary(socket, message);
                socket.suspendReading();
                Thread.ofVirtual().start(socket::resumeReading);
            }
        })) {
            java.net.http.WebSocket client = connect(server);
            for (int i = 0; i < count; i++) {
                // The JDK's client takes one send at a time.
                Await.future(client.sendBinary(ByteBuffer.allocate(Integer.BYTES).putInt(0, i), true), "a send");
            }

            Await.until(() -> received.size() == count, "every message arrived");
            assertThat(received).isEqualTo(indices(count));
            closeCleanly(client);
        }
    }

    @Test
    void aCloseSentWhileSuspendedIsAnsweredOnceReadingResumes() {
        try (RunningServer server = start(new Recorder() {
            @Override
            public void onOpen(WebSocket socket) {
                socket.suspendReading();
                super.onOpen(socket);
            }
        })) {
            java.net.http.WebSocket client = connect(server);
            Await.future(client.sendBinary(numbered(7), true), "a send");
            client.sendClose(1000, "bye");
            Await.holdsFor(STAND_STILL, () -> received.isEmpty() && !closed.isDone(),
                    "the suspended server hears neither the message nor the Close");

            Await.future(opened, "the server's socket").resumeReading();

            assertThat(Await.future(closed, "the server heard the Close")).isEqualTo(1000);
            assertThat(received).containsExactly(7);
        }
    }

    private void closeCleanly(java.net.http.WebSocket client) {
        Await.future(client.sendClose(1000, "done"), "the client's Close was sent");
        assertThat(Await.future(closed, "the server closed")).isEqualTo(1000);
    }

    private static ByteBuffer numbered(int index) {
        return ByteBuffer.allocate(MESSAGE).putInt(0, index);
    }

    private static List<Integer> indices(int count) {
        return java.util.stream.IntStream.range(0, count).boxed().toList();
    }

    /** Records the binary messages' numbers, and the socket and its closing code. */
    private class Recorder implements WebSocketHandler {

        @Override
        public void onOpen(WebSocket socket) {
            opened.complete(socket);
        }

        @Override
        public void onText(WebSocket socket, String message) {
        }

        @Override
        public void onBinary(WebSocket socket, ByteBuffer message) {
            received.add(message.getInt(message.position()));
        }

        @Override
        public void onClose(WebSocket socket, int code, String reason) {
            closed.complete(code);
        }
    }
}
