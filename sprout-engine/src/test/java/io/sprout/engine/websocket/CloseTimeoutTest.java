package io.sprout.engine.websocket;

import io.sprout.engine.AsyncExchange;
import io.sprout.engine.WebSocket;
import io.sprout.engine.WebSocketConfig;
import io.sprout.engine.WebSocketHandler;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The close timeout, armed when the server sends its Close, lives on the exchange's timeout (the server's one
 * timer, cancelled when the exchange ends) and is disarmed as soon as the client's Close completes the handshake.
 */
class CloseTimeoutTest {

    private static final WebSocketConfig CONFIG = WebSocketConfig.DEFAULT.withCloseTimeout(Duration.ofSeconds(7));

    private final Inbox inbox = new Inbox();
    private final RecordingExchange exchange = new RecordingExchange(inbox);
    private final WebSocket socket = WebSocketConnection.open(exchange, inbox, new ByteArrayOutputStream(), CONFIG,
            null, new WebSocketHandler() {
                @Override
                public void onText(WebSocket socket, String message) {
                }

                @Override
                public void onBinary(WebSocket socket, ByteBuffer message) {
                }
            });

    @Test
    void armsTheCloseTimeoutOnTheExchangeAndDisarmsItWhenTheClientAnswers() {
        socket.close(1000, "bye");
        assertThat(exchange.timeout).isEqualTo(Duration.ofSeconds(7));

        inbox.add(new ClientFrames().frame(true, 0, 0x8, ClientFrames.closePayload(1000, new byte[0])).bytes());
        exchange.readable.run();

        assertThat(exchange.timeout).isEqualTo(Duration.ZERO);
        assertThat(exchange.completed).isTrue();
        assertThat(exchange.aborted).isNull();
    }

    @Test
    void abortsWhenTheClientsCloseDoesNotComeInTime() {
        socket.close(1000, "bye");

        exchange.onTimeout.run();

        assertThat(exchange.aborted).isInstanceOf(SocketTimeoutException.class);
    }

    /** Bytes the test adds, read without waiting. */
    private static final class Inbox extends InputStream {

        private ByteBuffer bytes = ByteBuffer.allocate(0);

        void add(byte[] more) {
            bytes = ByteBuffer.allocate(bytes.remaining() + more.length).put(bytes).put(more).flip();
        }

        @Override
        public int available() {
            return bytes.remaining();
        }

        @Override
        public int read() {
            return bytes.hasRemaining() ? bytes.get() & 0xFF : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            int count = Math.min(len, bytes.remaining());
            bytes.get(b, off, count);
            return count;
        }
    }

    /** Runs tasks at once on the calling thread and records what the connection asked of it. */
    private static final class RecordingExchange implements AsyncExchange {

        private final Inbox inbox;
        Duration timeout;
        Runnable onTimeout;
        Runnable readable;
        boolean completed;
        Throwable aborted;

        RecordingExchange(Inbox inbox) {
            this.inbox = inbox;
        }

        @Override
        public boolean execute(Runnable task) {
            task.run();
            return true;
        }

        @Override
        public void executeConcurrently(Runnable task) {
            task.run();
        }

        @Override
        public void timeout(Duration after, Runnable onTimeout) {
            this.timeout = after;
            this.onTimeout = onTimeout;
        }

        @Override
        public boolean requestReady() {
            return inbox.available() > 0;
        }

        @Override
        public void onRequestReady(Runnable callback) {
            readable = callback;
        }

        @Override
        public void nonBlockingResponse() {
        }

        @Override
        public boolean responseReady() {
            return true;
        }

        @Override
        public void onResponseReady(Runnable callback) {
            callback.run();
        }

        @Override
        public void upgrade() {
        }

        @Override
        public void idleTimeout(Duration timeout) {
        }

        @Override
        public void onShutdown(Runnable task) {
        }

        @Override
        public void complete() {
            completed = true;
        }

        @Override
        public void abort(Throwable cause) {
            aborted = cause;
        }

        @Override
        public void onEnd(Consumer<Throwable> listener) {
        }
    }
}
