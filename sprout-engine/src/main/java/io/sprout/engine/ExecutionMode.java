package io.sprout.engine;

/** How a server moves bytes between sockets and handlers. */
public enum ExecutionMode {
    /** Selector event loops read request heads and service socket readiness; handlers run on workers. */
    NIO,
    /** Blocking socket I/O: one worker owns a connection for its whole life. */
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
