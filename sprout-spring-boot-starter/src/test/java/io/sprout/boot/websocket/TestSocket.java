package io.sprout.boot.websocket;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A JDK {@link WebSocket} client that queues the text messages it receives and records the Close it gets, for
 * tests to wait on (with generous timeouts that only end a hung test, never time a behaviour).
 */
final class TestSocket implements WebSocket.Listener {

    private static final long WAIT_SECONDS = 20;

    private final BlockingQueue<String> messages = new LinkedBlockingQueue<>();
    private final BlockingQueue<Integer> binaries = new LinkedBlockingQueue<>();
    private int binarySize;
    private final CompletableFuture<Integer> closed = new CompletableFuture<>();
    private final StringBuilder partial = new StringBuilder();
    private WebSocket socket;

    static TestSocket open(HttpClient client, String uri) throws Exception {
        return open(client.newWebSocketBuilder(), uri);
    }

    static TestSocket open(WebSocket.Builder builder, String uri) throws Exception {
        TestSocket listener = new TestSocket();
        listener.socket = builder.connectTimeout(Duration.ofSeconds(10))
                .buildAsync(URI.create(uri), listener).get(WAIT_SECONDS, TimeUnit.SECONDS);
        return listener;
    }

    String subprotocol() {
        return socket.getSubprotocol();
    }

    void sendBinary(byte[] data) throws Exception {
        socket.sendBinary(ByteBuffer.wrap(data), true).get(WAIT_SECONDS, TimeUnit.SECONDS);
    }

    void send(String text) throws Exception {
        socket.sendText(text, true).get(WAIT_SECONDS, TimeUnit.SECONDS);
    }

    /** The next text message; fails the test when none arrives. */
    String next() throws InterruptedException {
        String message = messages.poll(WAIT_SECONDS, TimeUnit.SECONDS);
        if (message == null) {
            throw new AssertionError("No WebSocket message arrived");
        }
        return message;
    }

    /** The next message within {@code millis}, or {@code null}: for polling, never asserted on timing. */
    String poll(long millis) throws InterruptedException {
        return messages.poll(millis, TimeUnit.MILLISECONDS);
    }

    /** The status code of the server's Close frame. */
    int closeCode() throws Exception {
        return closed.get(WAIT_SECONDS, TimeUnit.SECONDS);
    }

    void close() {
        socket.sendClose(WebSocket.NORMAL_CLOSURE, "done");
    }

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
        partial.append(data);
        if (last) {
            messages.add(partial.toString());
            partial.setLength(0);
        }
        webSocket.request(1);
        return null;
    }

    /** The size of the next binary message; fails the test when none arrives. */
    int nextBinarySize() throws InterruptedException {
        Integer size = binaries.poll(WAIT_SECONDS, TimeUnit.SECONDS);
        if (size == null) {
            throw new AssertionError("No binary WebSocket message arrived");
        }
        return size;
    }

    @Override
    public CompletionStage<?> onBinary(WebSocket webSocket, ByteBuffer data, boolean last) {
        binarySize += data.remaining();
        if (last) {
            binaries.add(binarySize);
            binarySize = 0;
        }
        webSocket.request(1);
        return null;
    }

    @Override
    public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
        closed.complete(statusCode);
        return null;
    }

    @Override
    public void onError(WebSocket webSocket, Throwable error) {
        closed.completeExceptionally(error);
    }
}
