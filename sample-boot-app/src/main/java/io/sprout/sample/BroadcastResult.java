package io.sprout.sample;

/**
 * The answer of {@code POST /benchmark/broadcast}.
 *
 * @param sessions subscribers when the broadcast started
 * @param messages messages per subscriber
 * @param size characters per message
 * @param sent messages the server handed to a session without an error
 * @param failed messages that could not be sent (the session closed, or its outbound queue was full)
 * @param millis how long the server took to hand every message over: on Spring MVC each send returns once written,
 * on WebFlux once queued for the session; delivery itself is measured by the clients
 */
public record BroadcastResult(int sessions, int messages, int size, long sent, long failed, long millis) {

    public BroadcastResult {
        if (sessions < 0 || messages < 0 || size < 0 || sent < 0 || failed < 0 || millis < 0) {
            throw new IllegalArgumentException("A broadcast result counts nothing negative, was sessions=" + sessions
                    + " messages=" + messages + " size=" + size + " sent=" + sent + " failed=" + failed + " millis="
                    + millis);
        }
    }

}
