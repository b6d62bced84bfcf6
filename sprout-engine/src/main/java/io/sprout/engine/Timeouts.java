package io.sprout.engine;

import java.time.Duration;

/**
 * Time limits on clients.
 *
 * @param requestHead absolute deadline for a whole request head, from its first byte (slowloris); 408 and close
 * @param idle how long a keep-alive connection may wait for the next request's first byte; then closed quietly
 * @param bodyRead the longest wait for request body bytes once a handler reads; the read then fails
 * @param write the longest a response write may wait for the client to take bytes; then the connection is aborted
 */
public record Timeouts(Duration requestHead, Duration idle, Duration bodyRead, Duration write) {

    public static final Timeouts DEFAULT = new Timeouts(
            Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofSeconds(30), Duration.ofSeconds(30));

    public Timeouts {
        Check.positive("requestHead", requestHead);
        Check.positive("idle", idle);
        Check.positive("bodyRead", bodyRead);
        Check.positive("write", write);
    }

    public Timeouts withRequestHead(Duration value) {
        return new Timeouts(value, idle, bodyRead, write);
    }

    public Timeouts withIdle(Duration value) {
        return new Timeouts(requestHead, value, bodyRead, write);
    }

    public Timeouts withBodyRead(Duration value) {
        return new Timeouts(requestHead, idle, value, write);
    }

    public Timeouts withWrite(Duration value) {
        return new Timeouts(requestHead, idle, bodyRead, value);
    }
}
