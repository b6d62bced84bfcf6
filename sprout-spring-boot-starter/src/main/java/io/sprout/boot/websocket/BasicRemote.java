package io.sprout.boot.websocket;

import jakarta.websocket.EncodeException;
import jakarta.websocket.RemoteEndpoint;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * {@link RemoteEndpoint.Basic}: each send returns once the engine has taken the frame (in {@code hybrid} mode once
 * it is written), and throws the {@link IOException} that failed it.
 */
final class BasicRemote implements RemoteEndpoint.Basic {

    private final Sender sender;
    private volatile boolean batchingAllowed;

    BasicRemote(Sender sender) {
        this.sender = sender;
    }

    @Override
    public void sendText(String text) throws IOException {
        await(sender.text(text, true));
    }

    @Override
    public void sendBinary(ByteBuffer data) throws IOException {
        await(sender.binary(data, true));
    }

    @Override
    public void sendText(String partialMessage, boolean isLast) throws IOException {
        await(sender.text(partialMessage, isLast));
    }

    @Override
    public void sendBinary(ByteBuffer partialByte, boolean isLast) throws IOException {
        await(sender.binary(partialByte, isLast));
    }

    @Override
    public OutputStream getSendStream() {
        return new MessageStreams.Binary(sender);
    }

    @Override
    public Writer getSendWriter() {
        return new MessageStreams.Text(sender);
    }

    @Override
    public void sendObject(Object data) throws IOException, EncodeException {
        try {
            await(sender.object(data));
        } catch (IOException e) {
            if (e.getCause() instanceof EncodeException encode) {
                throw encode;
            }
            throw e;
        }
    }

    @Override
    public void sendPing(ByteBuffer applicationData) throws IOException {
        await(sender.ping(applicationData));
    }

    @Override
    public void sendPong(ByteBuffer applicationData) throws IOException {
        await(sender.pong(applicationData));
    }

    /**
     * Batching is a permission, not a duty (Jakarta WebSocket 2.2 §5.2.2): Sprout hands every message to the
     * connection at once, so the flag is kept for {@link #getBatchingAllowed} and nothing is ever held back.
     */
    @Override
    public void setBatchingAllowed(boolean allowed) {
        batchingAllowed = allowed;
    }

    @Override
    public boolean getBatchingAllowed() {
        return batchingAllowed;
    }

    /** Nothing is ever held back (see {@link #setBatchingAllowed}), so there is nothing to flush. */
    @Override
    public void flushBatch() {
        // Intentionally empty: sends are never batched.
    }

    static void await(CompletableFuture<Void> sent) throws IOException {
        try {
            sent.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("Interrupted while sending a WebSocket message");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw cause instanceof IOException io ? io : new IOException(cause.getMessage(), cause);
        }
    }
}
