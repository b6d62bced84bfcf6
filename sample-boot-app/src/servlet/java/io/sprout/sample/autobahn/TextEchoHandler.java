package io.sprout.sample.autobahn;

import java.io.IOException;
import java.io.UncheckedIOException;

import org.springframework.web.socket.BinaryMessage;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.handler.TextWebSocketHandler;

/**
 * {@code /autobahn/default-limits}: the plainest handler a user writes, a {@link TextWebSocketHandler} that echoes,
 * with binary echoed too so the suite's binary cases mean something. It runs under the server's default limits, so
 * a message over them must end with 1009, never 1011.
 */
final class TextEchoHandler extends TextWebSocketHandler {

    @Override
    protected void handleTextMessage(WebSocketSession session, TextMessage message) throws Exception {
        session.sendMessage(message);
    }

    @Override
    protected void handleBinaryMessage(WebSocketSession session, BinaryMessage message) {
        try {
            session.sendMessage(message);
        }
        catch (IOException ex) {
            // The inherited signature allows no checked exception; rethrown, it ends the session as a failed text
            // send does (Spring's ExceptionWebSocketHandlerDecorator closes with 1011).
            throw new UncheckedIOException(ex);
        }
    }

}
