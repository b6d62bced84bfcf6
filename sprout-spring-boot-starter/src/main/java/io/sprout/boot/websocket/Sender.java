package io.sprout.boot.websocket;

import io.sprout.boot.stats.WebSocketStats;
import io.sprout.engine.WebSocket;
import jakarta.websocket.EncodeException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The sending side both remote endpoints share: encodes objects, checks control payloads and counts the messages
 * that go out. Every send returns the engine's future, completed once the frame is handed to the connection.
 */
final class Sender {

    private final Supplier<WebSocket> socket;
    private final Codecs codecs;
    private final WebSocketStats stats;

    Sender(Supplier<WebSocket> socket, Codecs codecs, WebSocketStats stats) {
        this.socket = socket;
        this.codecs = codecs;
        this.stats = stats;
    }

    CompletableFuture<Void> text(String text, boolean last) {
        if (text == null) {
            throw new IllegalArgumentException("The text to send must not be null");
        }
        WebSocket target = socket.get();
        counted(last);
        return target.sendText(text, last);
    }

    CompletableFuture<Void> binary(ByteBuffer data, boolean last) {
        if (data == null) {
            throw new IllegalArgumentException("The data to send must not be null");
        }
        WebSocket target = socket.get();
        counted(last);
        return target.sendBinary(data, last);
    }

    /** Encodes and sends; an encoder's failure fails the returned future with the {@link EncodeException}. */
    CompletableFuture<Void> object(Object data) {
        Codecs.Encoded encoded;
        try {
            encoded = codecs.encode(data);
        } catch (EncodeException | IOException | RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        return switch (encoded) {
            case Codecs.Text text -> text(text.text(), true);
            case Codecs.Binary binary -> binary(binary.data(), true);
        };
    }

    CompletableFuture<Void> ping(ByteBuffer payload) {
        return socket.get().sendPing(control(payload));
    }

    CompletableFuture<Void> pong(ByteBuffer payload) {
        return socket.get().sendPong(control(payload));
    }

    private static ByteBuffer control(ByteBuffer payload) {
        ByteBuffer data = payload == null ? ByteBuffer.allocate(0) : payload;
        if (data.remaining() > 125) {
            throw new IllegalArgumentException("A Ping or Pong carries at most 125 bytes, not " + data.remaining());
        }
        return data;
    }

    /** Counted before the frame is handed over, so a client that has the message always sees it counted. */
    private void counted(boolean last) {
        if (last) {
            stats.sent();
        }
    }
}
