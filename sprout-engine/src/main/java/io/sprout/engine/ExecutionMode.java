package io.sprout.engine;

/** How a server moves bytes between sockets and handlers. */
public enum ExecutionMode {
    /** Selector event loops read request heads and service socket readiness; handlers run on workers. */
    NIO,
    /**
     * The same event loops, but a worker that must wait for its client (a request body still on its way, a
     * response the client is slow to take) waits in the kernel, its socket in blocking mode, for the rest of that
     * request, rather than handing each wait to the loop. What waits between requests (keep-alive, a suspended
     * exchange, an idle WebSocket, a TLS handshake) holds no worker, as in {@code nio}.
     */
    HYBRID;

    /**
     * Parses a user-facing value such as {@code nio} or {@code HYBRID}.
     *
     * @throws InvalidConfigException naming the allowed values
     */
    public static ExecutionMode parse(String value) {
        return EnumValues.parse(ExecutionMode.class, "executionMode", value);
    }
}
