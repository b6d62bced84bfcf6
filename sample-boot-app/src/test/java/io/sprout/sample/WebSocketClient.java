package io.sprout.sample;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A JDK {@link WebSocket} that collects every whole message it receives (text as {@code String}, binary as
 * {@code byte[]}) in arrival order, for a test to take one by one with a time-out.
 */
final class WebSocketClient implements WebSocket.Listener, AutoCloseable {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final BlockingQueue<Object> messages = new LinkedBlockingQueue<>();

    private final StringBuilder text = new StringBuilder();

    private final ByteArrayOutputStream binary = new ByteArrayOutputStream();

    private final WebSocket socket;

    private WebSocketClient(HttpClient http, URI uri) {
        this.socket = http.newWebSocketBuilder().connectTimeout(TIMEOUT).buildAsync(uri, this).join();
    }

    static WebSocketClient open(HttpClient http, int port, String path) {
        return new WebSocketClient(http, URI.create("ws://127.0.0.1:" + port + path));
    }

    WebSocket socket() {
        return this.socket;
    }

    void sendText(String message) {
        this.socket.sendText(message, true).join();
    }

    void sendBinary(byte[] message) {
        this.socket.sendBinary(ByteBuffer.wrap(message), true).join();
    }

    String nextText() throws InterruptedException {
        Object message = next();
        assertThat(message).isInstanceOf(String.class);
        return (String) message;
    }

    byte[] nextBinary() throws InterruptedException {
        Object message = next();
        assertThat(message).isInstanceOf(byte[].class);
        return (byte[]) message;
    }

    private Object next() throws InterruptedException {
        Object message = this.messages.poll(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(message).as("a message within %s", TIMEOUT).isNotNull();
        return message;
    }

    /** Nothing more arrived (checked after the expected messages, so it waits only briefly). */
    void assertNothingMore() throws InterruptedException {
        assertThat(this.messages.poll(200, TimeUnit.MILLISECONDS)).isNull();
    }

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
        this.text.append(data);
        if (last) {
            this.messages.add(this.text.toString());
            this.text.setLength(0);
        }
        webSocket.request(1);
        return null;
    }

    @Override
    public CompletionStage<?> onBinary(WebSocket webSocket, ByteBuffer data, boolean last) {
        byte[] chunk = new byte[data.remaining()];
        data.get(chunk);
        this.binary.writeBytes(chunk);
        if (last) {
            this.messages.add(this.binary.toByteArray());
            this.binary.reset();
        }
        webSocket.request(1);
        return null;
    }

    /** Closes normally and waits until the server has answered the close. */
    @Override
    public void close() {
        if (!this.socket.isOutputClosed()) {
            this.socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").join();
        }
    }

}
