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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@linkplain WebSocketHandler#nonBlocking() non-blocking} handler: its callbacks run on the event loop that saw
 * the frames arrive (a blocking handler's never do), and its sends from other threads, which the engine writes in
 * the connection's turn, all arrive, in order.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(Combination.class)
class NonBlockingWebSocketIT {

    /** The event loops' names ({@code sprout-<port>-nio-1}, {@code sprout-<port>-hybrid-1}). */
    private static final Pattern EVENT_LOOP = Pattern.compile("sprout-\\d+-(nio|hybrid)-\\d+");
    private static final int ROUND_TRIPS = 50;
    private static final int PUSHED = 2_000;

    @Parameter
    Combination combination;

    private final CompletableFuture<WebSocket> opened = new CompletableFuture<>();
    private final CompletableFuture<Integer> closed = new CompletableFuture<>();
    /** The threads that ran {@code onText}. */
    private final List<String> callbackThreads = new CopyOnWriteArrayList<>();
    /** What the client received, message by message. */
    private final List<String> received = new CopyOnWriteArrayList<>();

    private RunningServer start(boolean nonBlocking) {
        WebSocketHandler echo = new WebSocketHandler() {
            @Override
            public boolean nonBlocking() {
                return nonBlocking;
            }

            @Override
            public void onOpen(WebSocket socket) {
                opened.complete(socket);
            }

            @Override
            public void onText(WebSocket socket, String message) {
                callbackThreads.add(Thread.currentThread().getName());
                socket.sendText(message, true);
            }

            @Override
            public void onBinary(WebSocket socket, ByteBuffer message) {
            }

            @Override
            public void onClose(WebSocket socket, int code, String reason) {
                closed.complete(code);
            }
        };
        RequestHandler upgrade = (request, response) -> WebSocketUpgrade.accept(request, response,
                WebSocketConfig.DEFAULT, null, echo);
        return RunningServer.start(combination, upgrade);
    }

    private java.net.http.WebSocket connect(RunningServer server) {
        return Await.future(HttpClient.newHttpClient().newWebSocketBuilder().buildAsync(
                URI.create("ws://127.0.0.1:" + server.port() + "/"), new java.net.http.WebSocket.Listener() {
                    private final StringBuilder message = new StringBuilder();

                    @Override
                    public CompletionStage<?> onText(java.net.http.WebSocket socket, CharSequence data,
                            boolean last) {
                        message.append(data);
                        if (last) {
                            received.add(message.toString());
                            message.setLength(0);
                        }
                        socket.request(1);
                        return null;
                    }
                }), "the client connected");
    }

    /** Sends numbered messages one at a time, each after the echo of the one before. */
    private void roundTrips(java.net.http.WebSocket client) {
        for (int i = 0; i < ROUND_TRIPS; i++) {
            Await.future(client.sendText("m" + i, true), "a send");
            int echoes = i + 1;
            Await.until(() -> received.size() == echoes, "the echo of message " + i);
        }
        assertThat(received).isEqualTo(numbered("m", ROUND_TRIPS));
    }

    @Test
    void aNonBlockingHandlersCallbacksRunOnTheEventLoop() {
        try (RunningServer server = start(true)) {
            java.net.http.WebSocket client = connect(server);
            roundTrips(client);
            closeCleanly(client);

            assertThat(callbackThreads).hasSize(ROUND_TRIPS);
            // The first message may arrive while the worker that answered the upgrade still runs the connection's
            // task; it then runs that message's callback next, in turn. From then on the connection is idle
            // between messages, and every callback runs on the loop.
            assertThat(callbackThreads.subList(1, ROUND_TRIPS)).allMatch(name -> EVENT_LOOP.matcher(name).matches(),
                    "an event loop's name");
        }
    }

    @Test
    void aBlockingHandlersCallbacksNeverRunOnTheEventLoop() {
        try (RunningServer server = start(false)) {
            java.net.http.WebSocket client = connect(server);
            roundTrips(client);
            closeCleanly(client);

            assertThat(callbackThreads).hasSize(ROUND_TRIPS).noneMatch(name -> EVENT_LOOP.matcher(name).matches());
        }
    }

    /**
     * Sends from a thread of the application's go through the engine's task in the connection's turn, which writes
     * them in batches: none may be lost, reordered or left incomplete on the way. (That the sender itself does not
     * write is a matter of speed, shown by the WebSocket benchmark's system-call counts, not of behaviour.)
     */
    @Test
    void aNonBlockingHandlersSendsFromAnotherThreadAllArriveInOrder() {
        try (RunningServer server = start(true)) {
            java.net.http.WebSocket client = connect(server);
            WebSocket socket = Await.future(opened, "the server's socket");
            List<CompletableFuture<Void>> sends = new ArrayList<>();
            Thread sender = Thread.ofPlatform().start(() -> {
                for (int i = 0; i < PUSHED; i++) {
                    sends.add(socket.sendText("p" + i, true));
                }
            });
            Await.until(() -> !sender.isAlive(), "the sender queued every message");

            Await.until(() -> received.size() == PUSHED, "every pushed message arrived");
            assertThat(received).isEqualTo(numbered("p", PUSHED));
            // A send completes once its frame is written, which the client may see before the server's thread
            // gets to complete the future.
            Await.until(() -> sends.stream().allMatch(CompletableFuture::isDone), "every send completed");
            assertThat(sends).noneMatch(CompletableFuture::isCompletedExceptionally);
            assertThat(socket.isOpen()).isTrue();
            closeCleanly(client);
        }
    }

    private void closeCleanly(java.net.http.WebSocket client) {
        Await.future(client.sendClose(1000, "done"), "the client's Close was sent");
        assertThat(Await.future(closed, "the server closed")).isEqualTo(1000);
    }

    private static List<String> numbered(String prefix, int count) {
        return IntStream.range(0, count).mapToObj(i -> prefix + i).toList();
    }
}
