package io.sprout.boot.websocket;

import jakarta.websocket.EncodeException;
import jakarta.websocket.RemoteEndpoint;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;

/**
 * {@link RemoteEndpoint.Basic}: each send returns once the engine has taken the frame (in either mode part of it may
 * still wait in the engine for a slow client), and throws the {@link IOException} that failed it.
 */
final class BasicRemote extends Remote implements RemoteEndpoint.Basic {

    BasicRemote(Sender sender) {
        super(sender);
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
}
