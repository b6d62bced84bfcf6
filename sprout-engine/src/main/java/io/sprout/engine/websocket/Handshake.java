package io.sprout.engine.websocket;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The server's check of an opening handshake (RFC 6455 §4.2.1) and its accept key. The origin is left to the
 * application, subprotocols and extensions to the negotiation that follows.
 */
final class Handshake {

    /** The only version there is; sent back in {@code Sec-WebSocket-Version} when a request asks for another. */
    static final String VERSION = "13";
    private static final String ACCEPT_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
    private static final int KEY_LENGTH = 16;

    private Handshake() {
    }

    /**
     * Whether the request is a WebSocket opening handshake at all: {@code Upgrade: websocket} (so other upgrades,
     * such as h2c, pass by).
     */
    static boolean isUpgradeRequest(Function<String, List<String>> header) {
        return hasToken(header.apply("Upgrade"), "websocket");
    }

    /**
     * Checks an opening handshake.
     *
     * @param method the request method
     * @param http11 whether the request is HTTP/1.1 (HTTP/1.0 cannot upgrade)
     * @param header every value of a request header field, by name
     * @return {@code null} when it is valid, else why not (the request is answered 400 with
     *     {@code Sec-WebSocket-Version: 13})
     */
    static String rejection(String method, boolean http11, Function<String, List<String>> header) {
        if (!method.equals("GET")) {
            return "A WebSocket handshake must be a GET, not " + method;
        }
        if (!http11) {
            return "A WebSocket handshake needs HTTP/1.1";
        }
        if (!hasToken(header.apply("Upgrade"), "websocket")) {
            return "Upgrade must name websocket";
        }
        if (!hasToken(header.apply("Connection"), "upgrade")) {
            return "Connection must contain upgrade";
        }
        List<String> versions = header.apply("Sec-WebSocket-Version");
        if (versions.size() != 1 || !versions.get(0).strip().equals(VERSION)) {
            return "Sec-WebSocket-Version must be 13 but was " + versions;
        }
        List<String> keys = header.apply("Sec-WebSocket-Key");
        if (keys.size() != 1 || !validKey(keys.get(0).strip())) {
            return "Sec-WebSocket-Key must be 16 bytes in base64 but was " + keys;
        }
        return null;
    }

    /** The {@code Sec-WebSocket-Accept} value for a request's key. */
    static String accept(String key) {
        try {
            MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
            byte[] digest = sha1.digest((key.strip() + ACCEPT_GUID).getBytes(StandardCharsets.US_ASCII));
            return Base64.getEncoder().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every JDK has SHA-1", e);
        }
    }

    private static boolean validKey(String key) {
        try {
            return Base64.getDecoder().decode(key).length == KEY_LENGTH;
        } catch (IllegalArgumentException notBase64) {
            return false;
        }
    }

    /** Whether a comma-separated field holds {@code token}, ignoring case and whitespace. */
    static boolean hasToken(List<String> values, String token) {
        for (String value : values) {
            for (String element : value.split(",")) {
                if (element.strip().toLowerCase(Locale.ROOT).equals(token)) {
                    return true;
                }
            }
        }
        return false;
    }
}
