package io.sprout.engine;

import java.time.Duration;

/**
 * The slowest a client may send, beside the per-read {@link Timeouts}: a client that trickles bytes just often enough
 * to beat every per-read timeout still has to keep up an average rate. Kestrel's rule: once the grace period has
 * passed, the bytes received must be at least {@code rate × time spent waiting for them}; a client below it gets
 * {@code 408} with {@code Connection: close}, and the connection closes.
 *
 * <p>The head's clock starts with the first byte of the head; the body's runs only while the server waits for body
 * bytes (a handler busy between two reads costs the client nothing). A rate of {@code 0} turns the rule off.
 *
 * @param headBytesPerSecond the least average rate of a request head, 0 for no rule (default 240)
 * @param headGracePeriod how long a head may take before its rate counts (default 5 s)
 * @param bodyBytesPerSecond the least average rate of a request body, 0 for no rule (default 240)
 * @param bodyGracePeriod how long a body may take before its rate counts (default 5 s)
 */
public record MinDataRates(long headBytesPerSecond, Duration headGracePeriod, long bodyBytesPerSecond,
        Duration bodyGracePeriod) {

    /** 240 bytes per second after 5 seconds, for heads and bodies: Kestrel's default for bodies. */
    public static final MinDataRates DEFAULT = new MinDataRates(240, Duration.ofSeconds(5), 240, Duration.ofSeconds(5));

    /** No rate rule: only the timeouts bound a slow client. */
    public static final MinDataRates NONE = new MinDataRates(0, Duration.ofSeconds(5), 0, Duration.ofSeconds(5));

    public MinDataRates {
        Check.range("headBytesPerSecond", headBytesPerSecond, 0, 1L << 30);
        Check.notNegative("headGracePeriod", headGracePeriod);
        Check.range("bodyBytesPerSecond", bodyBytesPerSecond, 0, 1L << 30);
        Check.notNegative("bodyGracePeriod", bodyGracePeriod);
    }

    public MinDataRates withHead(long bytesPerSecond, Duration gracePeriod) {
        return new MinDataRates(bytesPerSecond, gracePeriod, bodyBytesPerSecond, bodyGracePeriod);
    }

    public MinDataRates withBody(long bytesPerSecond, Duration gracePeriod) {
        return new MinDataRates(headBytesPerSecond, headGracePeriod, bytesPerSecond, gracePeriod);
    }
}
