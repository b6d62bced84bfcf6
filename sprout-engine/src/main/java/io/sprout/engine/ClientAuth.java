package io.sprout.engine;

/** Whether a TLS server asks clients for a certificate ({@link TlsConfig#clientAuth()}). */
public enum ClientAuth {
    /** No certificate is requested. */
    NONE,
    /** A certificate is requested; a client without one is still served, with no peer certificates. */
    WANT,
    /** A certificate is required: a client without a trusted one fails the handshake. */
    NEED;

    /**
     * Parses a user-facing value such as {@code need} or {@code WANT}.
     *
     * @throws InvalidConfigException naming the allowed values
     */
    public static ClientAuth parse(String value) {
        return EnumValues.parse(ClientAuth.class, "clientAuth", value);
    }
}
