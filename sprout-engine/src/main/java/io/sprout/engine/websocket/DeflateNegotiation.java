package io.sprout.engine.websocket;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The {@code permessage-deflate} negotiation (RFC 7692 §5, §7.1): the first acceptable offer in the client's
 * {@code Sec-WebSocket-Extensions} wins. An offer is declined when it has an unknown or repeated parameter or an
 * invalid value. {@code server_max_window_bits} below 15 is accepted, but the JDK's deflater always uses a 32 KiB
 * window, so the server then sends its messages uncompressed, which the extension allows (RSV1 is per message).
 * {@code client_max_window_bits} needs nothing: a 15-bit inflater reads any smaller window.
 *
 * @param serverNoContextTakeover the server resets its compressor after each message
 * @param clientNoContextTakeover the client resets its compressor after each message (so may the server's
 *     decompressor)
 * @param serverWindowBits the {@code server_max_window_bits} the client asked for, which an acceptance echoes, or
 *     0 when it did not ask
 */
record DeflateNegotiation(boolean serverNoContextTakeover, boolean clientNoContextTakeover,
        int serverWindowBits) {

    static final String EXTENSION = "permessage-deflate";

    /**
     * The agreement for the client's offers, or {@code null} when none is acceptable (compression stays off).
     *
     * @param offers the values of {@code Sec-WebSocket-Extensions}, each a comma-separated list of extensions
     */
    static DeflateNegotiation negotiate(List<String> offers) {
        for (String value : offers) {
            for (String offer : value.split(",")) {
                DeflateNegotiation agreed = accept(offer);
                if (agreed != null) {
                    return agreed;
                }
            }
        }
        return null;
    }

    /** The value of the response's {@code Sec-WebSocket-Extensions}. */
    String responseValue() {
        return EXTENSION + (serverNoContextTakeover ? "; server_no_context_takeover" : "")
                + (clientNoContextTakeover ? "; client_no_context_takeover" : "")
                + (serverWindowBits > 0 ? "; server_max_window_bits=" + serverWindowBits : "");
    }

    /** Whether the server compresses what it sends: not when the client limits its window below 32 KiB. */
    boolean serverCompresses() {
        return serverWindowBits == 0 || serverWindowBits == 15;
    }

    private static DeflateNegotiation accept(String offer) {
        String[] parts = offer.split(";");
        if (!parts[0].strip().equalsIgnoreCase(EXTENSION)) {
            return null;
        }
        Set<String> seen = new HashSet<>();
        boolean serverNoContextTakeover = false;
        boolean clientNoContextTakeover = false;
        int serverWindowBits = 0;
        for (int i = 1; i < parts.length; i++) {
            String parameter = parts[i].strip();
            int equals = parameter.indexOf('=');
            String name = (equals < 0 ? parameter : parameter.substring(0, equals)).strip().toLowerCase(Locale.ROOT);
            String value = equals < 0 ? null : unquoted(parameter.substring(equals + 1).strip());
            if (!seen.add(name)) {
                return null;
            }
            switch (name) {
                case "server_no_context_takeover" -> {
                    if (value != null) {
                        return null;
                    }
                    serverNoContextTakeover = true;
                }
                case "client_no_context_takeover" -> {
                    if (value != null) {
                        return null;
                    }
                    clientNoContextTakeover = true;
                }
                case "server_max_window_bits" -> {
                    serverWindowBits = value == null ? -1 : windowBits(value);
                    if (serverWindowBits < 0) {
                        return null;
                    }
                }
                case "client_max_window_bits" -> {
                    if (value != null && windowBits(value) < 0) {
                        return null;
                    }
                }
                default -> {
                    return null;
                }
            }
        }
        return new DeflateNegotiation(serverNoContextTakeover, clientNoContextTakeover, serverWindowBits);
    }

    /** 8–15, or -1 when {@code value} is not one of them. */
    private static int windowBits(String value) {
        if (!value.matches("[0-9]{1,2}")) {
            return -1;
        }
        int bits = Integer.parseInt(value);
        return bits >= 8 && bits <= 15 ? bits : -1;
    }

    private static String unquoted(String value) {
        return value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")
                ? value.substring(1, value.length() - 1) : value;
    }
}
