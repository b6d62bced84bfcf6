package io.sprout.sample;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * The text of one broadcast message: {@code "broadcast <sequence> <epoch-micros> "} padded with {@code x} to the
 * requested size. Every message of one broadcast carries the time the broadcast started, in microseconds since the
 * epoch, so a client on the same machine computes each message's delivery time (trigger to arrival, fan-out
 * included) without a clock of its own in the message path. The Gatling simulation {@code WebSocketBroadcast} reads
 * this format.
 */
public final class BroadcastMessage {

    /** The smallest size that holds the prefix with a 20-digit timestamp and a 5-digit sequence. */
    public static final int MIN_SIZE = 48;

    private BroadcastMessage() {
    }

    /** Now, in microseconds since the epoch. */
    public static long nowMicros() {
        return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
    }

    /** The message {@code sequence} of a broadcast that started at {@code startMicros}, {@code size} characters. */
    public static String text(int sequence, long startMicros, int size) {
        if (size < MIN_SIZE) {
            throw new IllegalArgumentException("size must be at least " + MIN_SIZE + ", was " + size);
        }
        StringBuilder text = new StringBuilder(size).append("broadcast ")
            .append(sequence)
            .append(' ')
            .append(startMicros)
            .append(' ');
        text.repeat('x', size - text.length());
        return text.toString();
    }

}
