package io.sprout.engine.websocket;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The reason text of a Close frame (RFC 6455 §5.5.1), which must fit a control frame beside the code: encoded in
 * UTF-8 and, when too long, cut at the last character boundary that fits, so the peer, which must reject invalid
 * UTF-8, never sees half a character.
 */
final class CloseReason {

    private CloseReason() {
    }

    /** {@code reason} ({@code null}: none) in UTF-8, at most {@code maxBytes} long, whole characters only. */
    static byte[] encode(String reason, int maxBytes) {
        byte[] text = reason == null ? new byte[0] : reason.getBytes(StandardCharsets.UTF_8);
        if (text.length <= maxBytes) {
            return text;
        }
        int end = maxBytes;
        while ((text[end] & 0xC0) == 0x80) {
            // text[end] continues a sequence: cutting there would split a character.
            end--;
        }
        return Arrays.copyOf(text, end);
    }
}
