package io.sprout.engine.http;

import java.nio.charset.StandardCharsets;

/** The standard method names as shared constants, so parsing a common method allocates nothing. */
final class Methods {

    static final String GET = "GET";
    static final String HEAD = "HEAD";
    static final String POST = "POST";
    static final String PUT = "PUT";
    static final String DELETE = "DELETE";
    static final String OPTIONS = "OPTIONS";
    static final String PATCH = "PATCH";
    static final String TRACE = "TRACE";
    static final String CONNECT = "CONNECT";

    private static final String[] KNOWN = {GET, HEAD, POST, PUT, DELETE, OPTIONS, PATCH, TRACE, CONNECT};

    private Methods() {
    }

    /** The constant for a known method, else {@code method} itself; heads compare methods by identity. */
    static String intern(String method) {
        for (String known : KNOWN) {
            if (known.equals(method)) {
                return known;
            }
        }
        return method;
    }

    /** The constant for a known method (methods are case-sensitive), else a new string. */
    static String of(byte[] bytes, int offset, int length) {
        for (String known : KNOWN) {
            if (Ascii.equalsExact(known, bytes, offset, length)) {
                return known;
            }
        }
        return new String(bytes, offset, length, StandardCharsets.ISO_8859_1);
    }
}
