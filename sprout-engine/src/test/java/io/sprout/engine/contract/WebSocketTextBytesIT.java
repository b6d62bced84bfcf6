package io.sprout.engine.contract;

import io.sprout.engine.RequestHandler;
import io.sprout.engine.WebSocket;
import io.sprout.engine.WebSocketConfig;
import io.sprout.engine.WebSocketHandler;
import io.sprout.engine.websocket.ClientFrames;
import io.sprout.engine.websocket.WebSocketUpgrade;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Text taken as its UTF-8 bytes ({@link WebSocketHandler#onTextBytes}) and sent as bytes
 * ({@link WebSocket#sendTextBytes}), over real sockets in every combination: the bytes arrive whole and checked,
 * however the message was fragmented, text that is not UTF-8 still fails with 1007 before the handler hears of it,
 * and sent bytes go out as they were. Each test ends with the leak checks.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(Combination.class)
class WebSocketTextBytesIT {

    /** "héllo ✓" with its check mark (three bytes) split between two frames. */
    private static final byte[] TEXT = "héllo ✓".getBytes(StandardCharsets.UTF_8);
    private static final int SPLIT = TEXT.length - 2;

    @Parameter
    Combination combination;

    /** How the handler heard of each message: {@code bytes:…} or {@code string:…}, then {@code close:<code>}. */
    private final List<String> serverSaw = new CopyOnWriteArrayList<>();

    /** Echoes text bytes as bytes, then scribbles over the engine's buffer: the send must have copied them. */
    private final WebSocketHandler bytesEcho = new WebSocketHandler() {
        @Override
        public void onText(WebSocket socket, String message) {
            serverSaw.add("string:" + message);
        }

        @Override
        public void onTextBytes(WebSocket socket, ByteBuffer utf8) {
            serverSaw.add("bytes:" + StandardCharsets.UTF_8.decode(utf8.duplicate()));
            socket.sendTextBytes(utf8, true);
            while (utf8.hasRemaining()) {
                utf8.put((byte) 'x');
            }
        }

        @Override
        public void onBinary(WebSocket socket, ByteBuffer message) {
            serverSaw.add("binary:" + message.remaining());
        }

        @Override
        public void onClose(WebSocket socket, int code, String reason) {
            serverSaw.add("close:" + code);
        }
    };

    private RunningServer start() {
        RequestHandler handler = (request, response) -> WebSocketUpgrade.accept(request, response,
                WebSocketConfig.DEFAULT, null, bytesEcho);
        return RunningServer.start(combination, handler);
    }

    @Test
    void deliversAFragmentedTextMessageAsItsCheckedBytesAndSendsBytesAsTheyAre() throws Exception {
        try (RunningServer server = start();
                WebSocketPeer peer = WebSocketPeer.handshake(server.port(), "/", "Sec-WebSocket-Version: 13\r\n")) {
            assertThat(peer.head()).startsWith("HTTP/1.1 101 ");
            peer.send(new ClientFrames().frame(false, 0, 0x1, Arrays.copyOf(TEXT, SPLIT))
                    .frame(true, 0, 0x0, Arrays.copyOfRange(TEXT, SPLIT, TEXT.length)).bytes());
            WebSocketPeer.Frame echoed = peer.frame();
            assertThat(echoed.opcode()).isEqualTo(0x1);
            assertThat(echoed.fin()).isTrue();
            assertThat(echoed.payload()).isEqualTo(TEXT);
            peer.send(new ClientFrames().frame(true, 0, 0x1, new byte[0]).bytes());
            assertThat(peer.frame().payload()).isEmpty();
            peer.send(new ClientFrames().frame(true, 0, 0x8, ClientFrames.closePayload(1000, new byte[0])).bytes());
            assertThat(peer.frame().closeCode()).isEqualTo(1000);
            assertThat(peer.closedByServer()).isTrue();
            Await.until(() -> serverSaw.contains("close:1000"), "the handler told of the close");
        }
        assertThat(serverSaw).containsExactly("bytes:héllo ✓", "bytes:", "close:1000");
    }

    @Test
    void failsTextThatIsNotUtf8With1007BeforeTheHandlerHearsOfIt() throws Exception {
        List<byte[]> broken = List.of(
                // A fragment whose continuation byte is no continuation: caught in the frame it arrives in.
                new ClientFrames().frame(false, 0, 0x1, Arrays.copyOf(TEXT, SPLIT))
                        .frame(true, 0, 0x0, new byte[] {'a', 'b'}).bytes(),
                // A message whose last fragment ends inside a character.
                new ClientFrames().frame(false, 0, 0x1, ClientFrames.utf8("ok"))
                        .frame(true, 0, 0x0, Arrays.copyOf(TEXT, SPLIT)).bytes(),
                // An overlong form in one frame.
                new ClientFrames().frame(true, 0, 0x1, new byte[] {'a', (byte) 0xC0, (byte) 0xAF}).bytes());
        try (RunningServer server = start()) {
            for (byte[] frames : broken) {
                try (WebSocketPeer peer = WebSocketPeer.handshake(server.port(), "/",
                        "Sec-WebSocket-Version: 13\r\n")) {
                    assertThat(peer.head()).startsWith("HTTP/1.1 101 ");
                    peer.send(frames);
                    WebSocketPeer.Frame close = peer.frame();
                    assertThat(close.opcode()).isEqualTo(0x8);
                    assertThat(close.closeCode()).isEqualTo(1007);
                    assertThat(peer.closedByServer()).isTrue();
                }
            }
            Await.until(() -> serverSaw.size() == broken.size(), "every failed connection closed");
        }
        assertThat(serverSaw).containsExactly("close:1007", "close:1007", "close:1007");
    }
}
