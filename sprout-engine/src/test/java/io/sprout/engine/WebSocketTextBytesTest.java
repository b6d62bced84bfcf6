package io.sprout.engine;

import org.junit.jupiter.api.Test;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The defaults that keep handlers and sockets written for strings working unchanged: text bytes handed to a handler
 * that does not take them are decoded for its {@code onText}, and text bytes sent through a socket that only sends
 * strings are decoded for its {@code sendText}; neither moves the caller's buffer.
 */
class WebSocketTextBytesTest {

    private static final String TEXT = "héllo ✓";

    private final List<String> heard = new ArrayList<>();
    private final WebSocketHandler stringsOnly = new WebSocketHandler() {
        @Override
        public void onText(WebSocket socket, String message) {
            heard.add(message);
        }

        @Override
        public void onBinary(WebSocket socket, ByteBuffer message) {
            heard.add("binary");
        }
    };

    @Test
    void aHandlerWithoutOnTextBytesHearsTheDecodedTextOfAnArrayBufferSlice() {
        byte[] bytes = ("[" + TEXT + "]").getBytes(StandardCharsets.UTF_8);
        ByteBuffer slice = ByteBuffer.wrap(bytes, 1, bytes.length - 2).slice();
        stringsOnly.onTextBytes(null, slice);
        assertThat(heard).containsExactly(TEXT);
        assertThat(slice.position()).isZero();
    }

    @Test
    void aHandlerWithoutOnTextBytesHearsTheDecodedTextOfADirectBuffer() {
        byte[] bytes = TEXT.getBytes(StandardCharsets.UTF_8);
        ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
        stringsOnly.onTextBytes(null, direct);
        assertThat(heard).containsExactly(TEXT);
        assertThat(direct.remaining()).isEqualTo(bytes.length);
    }

    @Test
    void aSocketWithoutSendTextBytesSendsTheDecodedText() {
        List<String> sent = new ArrayList<>();
        InvocationHandler sendTextOnly = (proxy, method, args) -> {
            if (method.isDefault()) {
                return InvocationHandler.invokeDefault(proxy, method, args);
            }
            if (method.getName().equals("sendText")) {
                sent.add(args[0] + (Boolean.TRUE.equals(args[1]) ? ":last" : ""));
                return CompletableFuture.completedFuture(null);
            }
            throw new UnsupportedOperationException(method.getName());
        };
        WebSocket socket = (WebSocket) Proxy.newProxyInstance(WebSocket.class.getClassLoader(),
                new Class<?>[] {WebSocket.class}, sendTextOnly);
        ByteBuffer utf8 = ByteBuffer.wrap(TEXT.getBytes(StandardCharsets.UTF_8));
        socket.sendTextBytes(utf8, true).join();
        assertThat(sent).containsExactly(TEXT + ":last");
        assertThat(utf8.position()).isZero();
    }
}
