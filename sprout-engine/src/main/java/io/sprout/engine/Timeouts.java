package io.sprout.engine;

import java.time.Duration;

/**
 * Time limits on clients.
 *
 * @param requestHead absolute deadline for a whole request head (slowloris): a new connection's first head counts from
 *     the accept, time spent waiting for a worker included; a later head on a keep-alive connection from its first
 *     byte. A head begun and not finished in time gets 408 and the connection closes; a new connection that sent
 *     nothing at all is closed quietly (default 10 s)
 * @param idle how long a keep-alive connection may wait for the next request's first byte; then closed quietly
 * @param bodyRead the longest wait for request body bytes once a handler reads; the read then fails
 * @param write the longest a response write may wait for the client to take bytes; then the connection is aborted
 * @param requestBody absolute deadline for a whole request body, from the first wait for its bytes, or
 *     {@link Duration#ZERO} (default) for none; then 408 and close
 */
public record Timeouts(Duration requestHead, Duration idle, Duration bodyRead, Duration write, Duration requestBody) {

    public static final Timeouts DEFAULT = new Timeouts(Duration.ofSeconds(10), Duration.ofSeconds(30),
            Duration.ofSeconds(30), Duration.ofSeconds(30), Duration.ZERO);

    public Timeouts {
        Check.positive("requestHead", requestHead);
        Check.positive("idle", idle);
        Check.positive("bodyRead", bodyRead);
        Check.positive("write", write);
        Check.notNegative("requestBody", requestBody);
    }

    public Timeouts withRequestHead(Duration value) {
        return new Timeouts(value, idle, bodyRead, write, requestBody);
    }

    public Timeouts withIdle(Duration value) {
        return new Timeouts(requestHead, value, bodyRead, write, requestBody);
    }

    public Timeouts withBodyRead(Duration value) {
        return new Timeouts(requestHead, idle, value, write, requestBody);
    }

    public Timeouts withWrite(Duration value) {
        return new Timeouts(requestHead, idle, bodyRead, value, requestBody);
    }

    /** @param value the whole body's deadline, or {@link Duration#ZERO} for none */
    public Timeouts withRequestBody(Duration value) {
        return new Timeouts(requestHead, idle, bodyRead, write, value);
    }
}
