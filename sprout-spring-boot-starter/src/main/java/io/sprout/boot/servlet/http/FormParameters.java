package io.sprout.boot.servlet.http;

import java.io.ByteArrayOutputStream;
import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Decodes {@code application/x-www-form-urlencoded} text (a query string or a form body) into parameters,
 * keeping arrival order. Malformed escapes are kept literally rather than failing the request, as Tomcat does
 * when it is lenient about a parameter.
 */
final class FormParameters {

    private FormParameters() {
    }

    static void parse(String text, Charset charset, Map<String, List<String>> into) {
        if (text == null || text.isEmpty()) {
            return;
        }
        int start = 0;
        while (start <= text.length()) {
            int end = text.indexOf('&', start);
            if (end < 0) {
                end = text.length();
            }
            if (end > start) {
                String pair = text.substring(start, end);
                int equals = pair.indexOf('=');
                String name = decode(equals < 0 ? pair : pair.substring(0, equals), charset);
                String value = equals < 0 ? "" : decode(pair.substring(equals + 1), charset);
                if (!name.isEmpty()) {
                    into.computeIfAbsent(name, key -> new ArrayList<>(1)).add(value);
                }
            }
            start = end + 1;
        }
    }

    static String decode(String text, Charset charset) {
        if (text.indexOf('%') < 0 && text.indexOf('+') < 0) {
            return text;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '+') {
                bytes.write(' ');
            } else if (c == '%' && i + 2 < text.length() && hex(text.charAt(i + 1)) >= 0
                    && hex(text.charAt(i + 2)) >= 0) {
                bytes.write((hex(text.charAt(i + 1)) << 4) | hex(text.charAt(i + 2)));
                i += 2;
            } else {
                bytes.writeBytes(String.valueOf(c).getBytes(charset));
            }
        }
        return bytes.toString(charset);
    }

    private static int hex(char c) {
        return Character.digit(c, 16);
    }
}
