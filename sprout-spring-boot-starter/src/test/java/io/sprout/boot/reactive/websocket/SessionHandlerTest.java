package io.sprout.boot.reactive.websocket;

import io.sprout.boot.stats.WebSocketStats;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import reactor.core.publisher.Mono;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;

/** What the engine may do to a session handler before the application ever sees a session. */
class SessionHandlerTest {

    @Test
    void aConnectionThatEndsBeforeItOpensIsNeitherCountedNorAFailure() {
        WebSocketStats stats = new WebSocketStats();
        SessionHandler handler = new SessionHandler(session -> Mono.never(), null,
                DefaultDataBufferFactory.sharedInstance, "1", MessageSender.windowFor(1 << 20), stats);

        // The server stopped between the handshake and the open: the engine reports only the close.
        assertThatNoException().isThrownBy(() -> handler.onClose(null, 1006, ""));

        assertThat(stats.open()).isZero();
    }
}
