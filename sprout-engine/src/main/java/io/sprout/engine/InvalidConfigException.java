package io.sprout.engine;

/**
 * A configuration value the engine refuses, as data: which field, the value as given, and what the field allows.
 * Thrown by the constructors of {@link ServerConfig}, {@link HttpLimits}, {@link Timeouts}, {@link MinDataRates},
 * {@link TlsConfig}, {@link TlsContexts} and {@link TlsContext} (and so by their builders and {@code with...}
 * methods) and by {@link ExecutionMode#parse}, {@link ThreadType#parse} and {@link ClientAuth#parse}, on the calling
 * thread. A layer that reads the values from somewhere else, such as property files, maps {@link #field()} to its
 * own name for the setting instead of reading the message.
 *
 * <p>The message reads {@code <field> must be <allowed> but was <value>}.
 */
public final class InvalidConfigException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String field;
    private final Object value;
    private final String allowed;

    InvalidConfigException(String field, Object value, String allowed) {
        super(field + " must be " + allowed + " but was " + describe(value));
        this.field = field;
        this.value = value;
        this.allowed = allowed;
    }

    /** The record component the value was for, e.g. {@code threadPoolSize} or {@code idle} (of {@link Timeouts}). */
    public String field() {
        return field;
    }

    /**
     * The value as given: a {@link Long} for any whole number, a {@link java.time.Duration}, a {@link java.util.List}
     * of ports, protocols or cipher suites, the {@link String} that failed to parse, the server name key, the
     * {@link javax.net.ssl.SSLContext}, or {@code null}.
     */
    public Object value() {
        return value;
    }

    /** What the field allows, in words that complete "must be": {@code between 1 and 32767}, {@code non-null}. */
    public String allowed() {
        return allowed;
    }

    private static String describe(Object value) {
        return value instanceof CharSequence text ? "'" + text + "'" : String.valueOf(value);
    }
}
