package io.sprout.boot.web;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * One server's answer to one request, as the client saw it: the status, every header field (names lower-cased,
 * sorted by name, values in the order they came) and the body's bytes.
 *
 * @param port the port of the server that answered, which an answer may echo back from the {@code Host} field
 */
record ParityAnswer(int port, int status, Map<String, List<String>> headers, byte[] body) {

    ParityAnswer {
        headers = Collections.unmodifiableMap(new TreeMap<>(headers));
    }

    static ParityAnswer of(int port, HttpResponse<byte[]> response) {
        Map<String, List<String>> headers = new TreeMap<>();
        response.headers().map().forEach((name, values) -> headers.computeIfAbsent(name.toLowerCase(Locale.ROOT),
                lowerCased -> new ArrayList<>()).addAll(values));
        return new ParityAnswer(port, response.statusCode(), headers, response.body());
    }

    /**
     * An answer read from a socket until the server closed it: the status line, the header fields, and the body as
     * it came, chunk framing and all.
     */
    static ParityAnswer parse(int port, byte[] raw) {
        String all = new String(raw, StandardCharsets.ISO_8859_1);
        int headEnd = all.indexOf("\r\n\r\n");
        if (headEnd < 0) {
            throw new IllegalArgumentException("No complete head in " + all.length() + " bytes: " + all);
        }
        String[] lines = all.substring(0, headEnd).split("\r\n");
        Map<String, List<String>> headers = new TreeMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.computeIfAbsent(lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT),
                    name -> new ArrayList<>()).add(lines[i].substring(colon + 1).strip());
        }
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        byte[] body = Arrays.copyOfRange(raw, headEnd + 4, raw.length);
        return new ParityAnswer(port, status, headers, body);
    }

    /** This answer without the header field {@code name} (lower case). */
    ParityAnswer without(String name) {
        Map<String, List<String>> fields = new TreeMap<>(headers);
        fields.remove(name);
        return new ParityAnswer(port, status, fields, body);
    }

    String text() {
        return new String(body, StandardCharsets.UTF_8);
    }

    /** The first value of the header {@code name} (lower case), or {@code null}. */
    String header(String name) {
        List<String> values = headers.get(name);
        return values == null || values.isEmpty() ? null : values.get(0);
    }
}
