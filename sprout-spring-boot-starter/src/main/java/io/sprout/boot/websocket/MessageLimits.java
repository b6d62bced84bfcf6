package io.sprout.boot.websocket;

import java.nio.charset.StandardCharsets;

/**
 * A session's largest accepted text and binary messages ({@code Session.setMax*MessageBufferSize}). The engine
 * enforces the connection's ceiling, fixed when it opens; a session may lower its limit below it at any time, and
 * a message over the lowered limit closes the session with 1009 as the engine would.
 */
final class MessageLimits {

    private final int textCeiling;
    private final int binaryCeiling;
    private volatile int text;
    private volatile int binary;

    /**
     * @param textCeiling the connection's limit for text messages, which the engine enforces
     * @param binaryCeiling the same for binary messages
     * @param text the session's initial text limit, at most {@code textCeiling}
     * @param binary the session's initial binary limit, at most {@code binaryCeiling}
     */
    MessageLimits(int textCeiling, int binaryCeiling, int text, int binary) {
        this.textCeiling = textCeiling;
        this.binaryCeiling = binaryCeiling;
        this.text = Math.min(text, textCeiling);
        this.binary = Math.min(binary, binaryCeiling);
    }

    int text() {
        return text;
    }

    int binary() {
        return binary;
    }

    void text(int value) {
        text = checked(value, textCeiling, "text", "max-text-message-size");
    }

    void binary(int value) {
        binary = checked(value, binaryCeiling, "binary", "max-binary-message-size");
    }

    boolean textTooBig(String message) {
        int limit = text;
        // Cheap for the usual case: no string of n chars has more than 3n bytes of UTF-8.
        return limit < textCeiling && (long) message.length() * 3 > limit
                && message.getBytes(StandardCharsets.UTF_8).length > limit;
    }

    boolean binaryTooBig(int size) {
        return size > binary;
    }

    private static int checked(int value, int ceiling, String kind, String property) {
        if (value < 1) {
            throw new IllegalArgumentException("The largest " + kind + " message must be at least 1 byte but was "
                    + value);
        }
        if (value > ceiling) {
            throw new IllegalArgumentException("Sprout cannot raise the largest " + kind + " message of an open "
                    + "session above " + ceiling + " bytes (the connection's limit, fixed when it opened): raise "
                    + "sprout.server.websocket." + property + " or the container's default instead");
        }
        return value;
    }
}
