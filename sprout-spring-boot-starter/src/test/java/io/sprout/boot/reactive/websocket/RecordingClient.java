package io.sprout.boot.reactive.websocket;

import java.io.ByteArrayOutputStream;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The JDK client's listener, recording what arrives as text: {@code text:…}, {@code binary:<n>}, … */
final class RecordingClient implements WebSocket.Listener {

    private static final Duration PATIENCE = Duration.ofSeconds(30);

    private final BlockingQueue<String> events = new LinkedBlockingQueue<>();
    private final StringBuilder text = new StringBuilder();
    private final ByteArrayOutputStream binary = new ByteArrayOutputStream();
    private volatile byte[] lastBinary;

    String next() throws InterruptedException {
        String event = events.poll(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        assertThat(event).as("an event within " + PATIENCE).isNotNull();
        return event;
    }

    byte[] lastBinary() {
        return lastBinary;
    }

    @Override
    public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
        text.append(data);
        if (last) {
            events.add("text:" + text);
            text.setLength(0);
        }
        socket.request(1);
        return null;
    }

    @Override
    public CompletionStage<?> onBinary(WebSocket socket, ByteBuffer data, boolean last) {
        byte[] bytes = new byte[data.remaining()];
        data.get(bytes);
        binary.writeBytes(bytes);
        if (last) {
            lastBinary = binary.toByteArray();
            events.add("binary:" + lastBinary.length);
            binary.reset();
        }
        socket.request(1);
        return null;
    }

    @Override
    public CompletionStage<?> onClose(WebSocket socket, int statusCode, String reason) {
        events.add("close:" + statusCode);
        return null;
    }

    @Override
    public void onError(WebSocket socket, Throwable error) {
        events.add("error:" + error);
    }
}
