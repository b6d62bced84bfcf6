package io.sprout.engine;

import java.time.Duration;

/**
 * Limits and options of WebSocket connections.
 *
 * @param maxFrameSize a ceiling on one frame's payload, whatever the message limits: a longer frame closes the
 *     connection with 1009. By default none ({@link Integer#MAX_VALUE}): a frame is limited by the message limit
 *     that applies to it, so a message may come in one frame as large as the message limit allows
 * @param maxTextMessageSize the largest text message accepted whole, in bytes of UTF-8; longer closes with 1009,
 *     as soon as a frame's length shows it (a message taken in parts has no limit, see
 *     {@link WebSocketHandler#textInParts()})
 * @param maxBinaryMessageSize the largest binary message accepted; longer closes with 1009
 * @param idleTimeout how long the client may send nothing before the connection is closed with 1001;
 *     {@link Duration#ZERO} for no limit
 * @param closeTimeout how long to wait for the client's Close after sending one, before dropping the connection
 * @param maxQueuedBytes the most bytes of outgoing frames waiting for a client that does not read; sends beyond
 *     it fail, so a slow reader never grows memory without bound. A single frame larger than it is sent when
 *     nothing else waits
 * @param compression whether {@code permessage-deflate} is agreed when a client offers it
 */
public record WebSocketConfig(int maxFrameSize, int maxTextMessageSize, int maxBinaryMessageSize,
        Duration idleTimeout, Duration closeTimeout, long maxQueuedBytes, boolean compression) {

    public static final WebSocketConfig DEFAULT = new WebSocketConfig(Integer.MAX_VALUE, 65_536, 65_536,
            Duration.ZERO, Duration.ofSeconds(5), 4L * 1024 * 1024, true);

    public WebSocketConfig {
        Check.range("maxFrameSize", maxFrameSize, 125, Integer.MAX_VALUE);
        checkMessageSizes(maxTextMessageSize, maxBinaryMessageSize);
        Check.notNegative("idleTimeout", idleTimeout);
        Check.positive("closeTimeout", closeTimeout);
        Check.range("maxQueuedBytes", maxQueuedBytes, 1, Long.MAX_VALUE);
    }

    /** Checks message limits as the constructor and {@link WebSocket#maxMessageSizes} take them. */
    public static void checkMessageSizes(int text, int binary) {
        Check.range("maxTextMessageSize", text, 1, Integer.MAX_VALUE - 8);
        Check.range("maxBinaryMessageSize", binary, 1, Integer.MAX_VALUE - 8);
    }

    public WebSocketConfig withMaxFrameSize(int value) {
        return new WebSocketConfig(value, maxTextMessageSize, maxBinaryMessageSize, idleTimeout, closeTimeout,
                maxQueuedBytes, compression);
    }

    public WebSocketConfig withMaxMessageSizes(int text, int binary) {
        return new WebSocketConfig(maxFrameSize, text, binary, idleTimeout, closeTimeout, maxQueuedBytes,
                compression);
    }

    public WebSocketConfig withIdleTimeout(Duration value) {
        return new WebSocketConfig(maxFrameSize, maxTextMessageSize, maxBinaryMessageSize, value, closeTimeout,
                maxQueuedBytes, compression);
    }

    public WebSocketConfig withCloseTimeout(Duration value) {
        return new WebSocketConfig(maxFrameSize, maxTextMessageSize, maxBinaryMessageSize, idleTimeout, value,
                maxQueuedBytes, compression);
    }

    public WebSocketConfig withMaxQueuedBytes(long value) {
        return new WebSocketConfig(maxFrameSize, maxTextMessageSize, maxBinaryMessageSize, idleTimeout,
                closeTimeout, value, compression);
    }

    public WebSocketConfig withCompression(boolean value) {
        return new WebSocketConfig(maxFrameSize, maxTextMessageSize, maxBinaryMessageSize, idleTimeout,
                closeTimeout, maxQueuedBytes, value);
    }
}
