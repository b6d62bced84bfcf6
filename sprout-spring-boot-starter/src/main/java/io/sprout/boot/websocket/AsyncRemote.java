package io.sprout.boot.websocket;

import jakarta.websocket.RemoteEndpoint;
import jakarta.websocket.SendHandler;
import jakarta.websocket.SendResult;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * {@link RemoteEndpoint.Async}: sends never wait. The future (or the {@link SendHandler}, called on the thread
 * that completes the send) reports when the engine has taken the frame; with a send timeout, a send not taken in
 * time fails with a {@link java.util.concurrent.TimeoutException}.
 */
final class AsyncRemote extends Remote implements RemoteEndpoint.Async {

    private volatile long sendTimeout;

    AsyncRemote(Sender sender, long sendTimeout) {
        super(sender);
        this.sendTimeout = sendTimeout;
    }

    @Override
    public long getSendTimeout() {
        return sendTimeout;
    }

    /** Zero or negative: no timeout. */
    @Override
    public void setSendTimeout(long timeoutmillis) {
        sendTimeout = timeoutmillis;
    }

    @Override
    public void sendText(String text, SendHandler handler) {
        report(timed(sender.text(text, true)), handler);
    }

    @Override
    public Future<Void> sendText(String text) {
        return timed(sender.text(text, true));
    }

    @Override
    public Future<Void> sendBinary(ByteBuffer data) {
        return timed(sender.binary(data, true));
    }

    @Override
    public void sendBinary(ByteBuffer data, SendHandler handler) {
        report(timed(sender.binary(data, true)), handler);
    }

    @Override
    public Future<Void> sendObject(Object data) {
        return timed(sender.object(data));
    }

    @Override
    public void sendObject(Object data, SendHandler handler) {
        report(timed(sender.object(data)), handler);
    }

    private CompletableFuture<Void> timed(CompletableFuture<Void> sent) {
        long timeout = sendTimeout;
        // On the JDK's one delay thread, not the server's timer, which the engine does not export: still bounded
        // (one thread per JVM, one small task per pending send) and cancelled by the JDK once the send completes.
        return timeout > 0 ? sent.copy().orTimeout(timeout, TimeUnit.MILLISECONDS) : sent;
    }

    private static void report(CompletableFuture<Void> sent, SendHandler handler) {
        if (handler == null) {
            throw new IllegalArgumentException("The SendHandler must not be null");
        }
        sent.whenComplete((done, failure) -> handler.onResult(failure == null ? new SendResult()
                : new SendResult(failure instanceof CompletionException c && c.getCause() != null
                        ? c.getCause() : failure)));
    }
}
