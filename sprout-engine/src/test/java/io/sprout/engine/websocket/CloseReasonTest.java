package io.sprout.engine.websocket;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class CloseReasonTest {

    @Test
    void keepsAReasonThatFits() {
        assertThat(CloseReason.encode("bye", 3)).isEqualTo(utf8("bye"));
        assertThat(CloseReason.encode(null, 10)).isEmpty();
    }

    @Test
    void cutsAtTheLastWholeCharacterThatFits() {
        // "a" is one byte, "é" two, "€" three, "😀" four: every cut point inside a character moves back to its start.
        String reason = "aé€😀";
        assertThat(CloseReason.encode(reason, 2)).isEqualTo(utf8("a"));
        assertThat(CloseReason.encode(reason, 3)).isEqualTo(utf8("aé"));
        assertThat(CloseReason.encode(reason, 5)).isEqualTo(utf8("aé"));
        assertThat(CloseReason.encode(reason, 6)).isEqualTo(utf8("aé€"));
        assertThat(CloseReason.encode(reason, 9)).isEqualTo(utf8("aé€"));
        assertThat(CloseReason.encode(reason, 10)).isEqualTo(utf8("aé€😀"));
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
