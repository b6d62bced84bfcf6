package io.sprout.engine;

/** Which threads run handlers. */
public enum ThreadType {
    /** A fixed pool of {@link ServerConfig#threadPoolSize()} platform threads with a bounded queue. */
    PLATFORM,
    /** One new virtual thread per task. */
    VIRTUAL;

    /**
     * Parses a user-facing value such as {@code virtual} or {@code PLATFORM}.
     *
     * @throws InvalidConfigException naming the allowed values
     */
    public static ThreadType parse(String value) {
        return EnumValues.parse(ThreadType.class, "threadType", value);
    }
}
