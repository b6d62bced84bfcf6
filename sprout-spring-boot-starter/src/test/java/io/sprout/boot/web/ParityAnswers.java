package io.sprout.boot.web;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sprout's and Reactor Netty's answers to the same request, and what "the same answer" means between them: the same
 * status, the same header fields but for {@link #NOT_COMPARED}, the same body. Each check returns Sprout's answer for
 * the caller's own expectations, since a test must still fail when both servers are wrong the same way.
 */
record ParityAnswers(ParityAnswer sprout, ParityAnswer netty) {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /**
     * Header fields two correct servers may answer differently. {@code Date}: Sprout sends it, as RFC 9110 §6.6.1
     * asks of an origin server with a clock; Reactor Netty does not, and its value would differ by the clock anyway.
     */
    private static final Set<String> NOT_COMPARED = Set.of("date");

    /** The framing fields, compared as everything else except by {@link #assertSameExceptFraming()}. */
    private static final Set<String> FRAMING = Set.of("content-length", "transfer-encoding");

    /** Everything identical: status, header fields, and the body byte for byte. */
    ParityAnswer assertSame() {
        assertSameHead(Set.of());
        assertSameBody(sprout.body(), netty.body());
        return sprout;
    }

    /**
     * As {@link #assertSame()}, but the body may be framed differently: for a body written without flushes
     * (Spring's {@code writeWith}) Reactor Netty sends each buffer as a chunk as it comes, while Sprout, like Tomcat
     * and Jetty, collects it in its response buffer and so can give a body that fits a {@code Content-Length}. Each
     * answer's framing must still agree with its own body.
     */
    ParityAnswer assertSameExceptFraming() {
        assertFramedConsistently(sprout);
        assertFramedConsistently(netty);
        assertSameHead(FRAMING);
        assertSameBody(sprout.body(), netty.body());
        return sprout;
    }

    /**
     * For Boot's error attributes: the body is JSON whose {@code timestamp} and {@code requestId} differ from one
     * request to the next, so those two are left out, and with them the value of {@code Content-Length} (the request
     * ids of the two servers differ in length), which must still be each body's own length. A {@code HEAD} answer
     * has no body to compare.
     */
    ParityAnswer assertSameError() {
        assertThat(sprout.headers().containsKey("content-length")).as("Content-Length on Sprout, as on Netty")
                .isEqualTo(netty.headers().containsKey("content-length"));
        assertFramedConsistently(sprout);
        assertFramedConsistently(netty);
        assertSameHead(Set.of("content-length"));
        assertThat(withoutPerRequestFields(sprout)).as("error attributes (Sprout, then Netty)")
                .isEqualTo(withoutPerRequestFields(netty));
        return sprout;
    }

    /**
     * For a body that names the address the client used ({@code Host}, so each server's own port): the bodies are
     * compared with each port replaced by {@code {port}}, and {@code Content-Length} is each body's own.
     */
    ParityAnswer assertSameNamingTheirPorts() {
        assertFramedConsistently(sprout);
        assertFramedConsistently(netty);
        assertSameHead(Set.of("content-length"));
        assertThat(withoutPort(sprout)).as("body, ports left out (Sprout, then Netty)").isEqualTo(withoutPort(netty));
        return sprout;
    }

    private static String withoutPort(ParityAnswer answer) {
        return answer.text().replaceAll(":" + answer.port() + "(?!\\d)", ":{port}");
    }

    private void assertSameHead(Set<String> alsoNotCompared) {
        assertThat(sprout.status()).as("status (Sprout, then Netty)").isEqualTo(netty.status());
        assertThat(comparable(sprout, alsoNotCompared)).as("header fields (Sprout, then Netty)")
                .isEqualTo(comparable(netty, alsoNotCompared));
    }

    private static Map<String, List<String>> comparable(ParityAnswer answer, Set<String> alsoNotCompared) {
        Map<String, List<String>> fields = new TreeMap<>(answer.headers());
        fields.keySet().removeAll(NOT_COMPARED);
        fields.keySet().removeAll(alsoNotCompared);
        fields.computeIfPresent("set-cookie", (name, cookies) -> cookies.stream()
                .map(ParityAnswers::withLowerCaseAttributeNames).toList());
        return fields;
    }

    /**
     * Cookie attribute names are case-insensitive (RFC 6265 §5.2): Spring's {@code ResponseCookie} writes
     * {@code HttpOnly}, Reactor Netty's encoder {@code HTTPOnly}. The name and value of the cookie itself stay as
     * they are.
     */
    private static String withLowerCaseAttributeNames(String setCookie) {
        String[] parts = setCookie.split(";");
        for (int i = 1; i < parts.length; i++) {
            int equals = parts[i].indexOf('=');
            String name = equals < 0 ? parts[i] : parts[i].substring(0, equals);
            parts[i] = name.strip().toLowerCase(Locale.ROOT) + (equals < 0 ? "" : parts[i].substring(equals));
        }
        return Arrays.stream(parts).collect(Collectors.joining(";"));
    }

    /** A declared length is the body's (a {@code HEAD} answer declares the length a {@code GET} would have). */
    private static void assertFramedConsistently(ParityAnswer answer) {
        String length = answer.header("content-length");
        if (length != null && answer.body().length > 0) {
            assertThat(Long.parseLong(length)).as("Content-Length of the answer from port " + answer.port())
                    .isEqualTo(answer.body().length);
        }
    }

    private static void assertSameBody(byte[] sproutBody, byte[] nettyBody) {
        if (Arrays.equals(sproutBody, nettyBody)) {
            return;
        }
        assertThat(sproutBody.length).as("body length (Sprout, then Netty)").isEqualTo(nettyBody.length);
        int first = Arrays.mismatch(sproutBody, nettyBody);
        assertThat(excerpt(sproutBody, first)).as("body from byte %d (Sprout, then Netty)", first)
                .isEqualTo(excerpt(nettyBody, first));
    }

    private static String excerpt(byte[] body, int from) {
        int to = Math.min(body.length, from + 200);
        return new String(body, from, to - from, StandardCharsets.ISO_8859_1);
    }

    /** The error attributes less the per-request ones; a message naming the request's URL names it without port. */
    private static JsonNode withoutPerRequestFields(ParityAnswer answer) {
        if (answer.body().length == 0) {
            return null;
        }
        JsonNode attributes = JSON.readTree(withoutPort(answer));
        assertThat(attributes.isObject()).as("error attributes, as JSON, from port " + answer.port()).isTrue();
        ((ObjectNode) attributes).remove(List.of("timestamp", "requestId"));
        return attributes;
    }
}
