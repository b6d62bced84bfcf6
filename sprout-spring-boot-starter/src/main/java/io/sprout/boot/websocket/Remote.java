package io.sprout.boot.websocket;

import jakarta.websocket.RemoteEndpoint;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * What both kinds of {@link RemoteEndpoint} share: the session's {@link Sender}, pings and pongs (sent and waited for
 * in either kind, as the API declares them), and the batching flag.
 */
abstract sealed class Remote implements RemoteEndpoint permits AsyncRemote, BasicRemote {

    final Sender sender;
    private volatile boolean batchingAllowed;

    Remote(Sender sender) {
        this.sender = sender;
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

    /** Waits for a send; throws the {@link IOException} that failed it. */
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
