package io.sprout.engine.websocket;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/** The opening handshake's checks (RFC 6455 §4.2.1) and the accept key. */
class HandshakeTest {

    private static final String KEY = "dGhlIHNhbXBsZSBub25jZQ==";

    private static Function<String, List<String>> headers(String... nameValues) {
        Map<String, List<String>> fields = new HashMap<>();
        for (int i = 0; i < nameValues.length; i += 2) {
            fields.computeIfAbsent(nameValues[i].toLowerCase(Locale.ROOT), n -> new java.util.ArrayList<>())
                    .add(nameValues[i + 1]);
        }
        return name -> fields.getOrDefault(name.toLowerCase(Locale.ROOT), List.of());
    }

    private static Function<String, List<String>> validWith(String name, String value) {
        Map<String, String> fields = new HashMap<>(Map.of("upgrade", "websocket", "connection", "Upgrade",
                "sec-websocket-version", "13", "sec-websocket-key", KEY));
        if (value == null) {
            fields.remove(name.toLowerCase(Locale.ROOT));
        } else {
            fields.put(name.toLowerCase(Locale.ROOT), value);
        }
        return field -> {
            String found = fields.get(field.toLowerCase(Locale.ROOT));
            return found == null ? List.of() : List.of(found);
        };
    }

    @Test
    void computesTheRfcSampleAcceptKey() {
        assertThat(Handshake.accept(KEY)).isEqualTo("s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
    }

    @Test
    void acceptsAValidHandshakeWithTokensInAnyCase() {
        assertThat(Handshake.rejection("GET", true, validWith("Connection", "keep-alive, UPGRADE"))).isNull();
        assertThat(Handshake.rejection("GET", true, validWith("Upgrade", "WebSocket"))).isNull();
        assertThat(Handshake.isUpgradeRequest(validWith("Upgrade", "websocket"))).isTrue();
        assertThat(Handshake.isUpgradeRequest(validWith("Upgrade", "h2c"))).isFalse();
    }

    @Test
    void rejectsWhatIsNotAValidHandshake() {
        assertThat(Handshake.rejection("POST", true, validWith("Upgrade", "websocket"))).contains("GET");
        assertThat(Handshake.rejection("GET", false, validWith("Upgrade", "websocket"))).contains("HTTP/1.1");
        assertThat(Handshake.rejection("GET", true, validWith("Upgrade", null))).contains("Upgrade");
        assertThat(Handshake.rejection("GET", true, validWith("Connection", "keep-alive"))).contains("Connection");
        assertThat(Handshake.rejection("GET", true, validWith("Sec-WebSocket-Version", "8"))).contains("13");
        assertThat(Handshake.rejection("GET", true, validWith("Sec-WebSocket-Version", null))).contains("13");
        assertThat(Handshake.rejection("GET", true, validWith("Sec-WebSocket-Key", null))).contains("Key");
        assertThat(Handshake.rejection("GET", true, validWith("Sec-WebSocket-Key", "not base64!"))).contains("Key");
        assertThat(Handshake.rejection("GET", true, validWith("Sec-WebSocket-Key", "AAAAAAAAAAAAAAAAAAAA")))
                .as("15 bytes").contains("Key");
        assertThat(Handshake.rejection("GET", true, headers("Upgrade", "websocket", "Connection", "upgrade",
                "Sec-WebSocket-Version", "13", "Sec-WebSocket-Key", KEY, "Sec-WebSocket-Key", KEY)))
                .as("two keys").contains("Key");
    }
}
