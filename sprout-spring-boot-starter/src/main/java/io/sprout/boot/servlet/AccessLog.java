package io.sprout.boot.servlet;

import jakarta.servlet.http.HttpServletRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * Writes one line per completed request to the SLF4J logger {@code io.sprout.accesslog} at INFO, in a subset of
 * Tomcat's pattern language: {@code %h %a %l %u %t %r %m %U %q %H %s %b %B %D %T %{Name}i} and the aliases
 * {@code common} and {@code combined}.
 *
 * <p>Immutable once compiled; {@code log} runs on request workers and blocks only as long as the SLF4J appender
 * does (use an async appender for heavy traffic).
 */
public final class AccessLog {

    /** What one log line is made of. */
    record Entry(HttpServletRequest request, int status, long bytes, long nanos) {
    }

    private static final Logger LOG = LoggerFactory.getLogger("io.sprout.accesslog");
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("'['dd/MMM/yyyy:HH:mm:ss Z']'", Locale.US).withZone(ZoneId.systemDefault());

    private final List<Function<Entry, String>> parts;

    /**
     * @throws IllegalArgumentException naming an unknown {@code %} code
     */
    public AccessLog(String pattern) {
        this.parts = compile(switch (pattern) {
            case "common" -> "%h %l %u %t \"%r\" %s %b";
            case "combined" -> "%h %l %u %t \"%r\" %s %b \"%{Referer}i\" \"%{User-Agent}i\"";
            default -> pattern;
        });
    }

    void log(HttpServletRequest request, int status, long bytes, long nanos) {
        if (!LOG.isInfoEnabled()) {
            return;
        }
        Entry entry = new Entry(request, status, bytes, nanos);
        StringBuilder line = new StringBuilder(128);
        for (Function<Entry, String> part : parts) {
            line.append(part.apply(entry));
        }
        LOG.info(line.toString());
    }

    /** Formats an entry without logging; for tests. */
    String format(HttpServletRequest request, int status, long bytes, long nanos) {
        Entry entry = new Entry(request, status, bytes, nanos);
        StringBuilder line = new StringBuilder();
        parts.forEach(part -> line.append(part.apply(entry)));
        return line.toString();
    }

    private static List<Function<Entry, String>> compile(String pattern) {
        List<Function<Entry, String>> parts = new ArrayList<>();
        StringBuilder literal = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c != '%' || i + 1 == pattern.length()) {
                literal.append(c);
                continue;
            }
            String text = literal.toString();
            parts.add(e -> text);
            literal.setLength(0);
            char code = pattern.charAt(++i);
            if (code == '{') {
                int close = pattern.indexOf('}', i);
                if (close < 0 || close + 1 >= pattern.length() || pattern.charAt(close + 1) != 'i') {
                    throw new IllegalArgumentException("Access log pattern '" + pattern + "': only %{Header}i is "
                            + "supported among %{...} codes");
                }
                String header = pattern.substring(i + 1, close);
                parts.add(e -> dash(e.request().getHeader(header)));
                i = close + 1;
            } else {
                parts.add(part(code, pattern));
            }
        }
        String text = literal.toString();
        parts.add(e -> text);
        return parts;
    }

    private static Function<Entry, String> part(char code, String pattern) {
        return switch (code) {
            case 'h', 'a' -> e -> e.request().getRemoteAddr();
            case 'l' -> e -> "-";
            case 'u' -> e -> dash(e.request().getRemoteUser());
            case 't' -> e -> TIME.format(Instant.now());
            case 'r' -> e -> e.request().getMethod() + " " + e.request().getRequestURI()
                    + (e.request().getQueryString() == null ? "" : "?" + e.request().getQueryString()) + " "
                    + e.request().getProtocol();
            case 'm' -> e -> e.request().getMethod();
            case 'U' -> e -> e.request().getRequestURI();
            case 'q' -> e -> e.request().getQueryString() == null ? "" : "?" + e.request().getQueryString();
            case 'H' -> e -> e.request().getProtocol();
            case 's' -> e -> String.valueOf(e.status());
            case 'b' -> e -> e.bytes() == 0 ? "-" : String.valueOf(e.bytes());
            case 'B' -> e -> String.valueOf(e.bytes());
            case 'D' -> e -> String.valueOf(e.nanos() / 1_000_000);
            case 'T' -> e -> String.format(Locale.ROOT, "%.3f", e.nanos() / 1e9);
            case '%' -> e -> "%";
            default -> throw new IllegalArgumentException("Access log pattern '" + pattern + "' has unknown code %"
                    + code + "; allowed: %h %a %l %u %t %r %m %U %q %H %s %b %B %D %T %{Header}i, "
                    + "or 'common'/'combined'");
        };
    }

    private static String dash(String value) {
        return value == null || value.isEmpty() ? "-" : value;
    }
}
