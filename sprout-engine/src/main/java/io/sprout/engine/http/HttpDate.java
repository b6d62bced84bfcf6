package io.sprout.engine.http;

import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * The {@code Date} header value (IMF-fixdate), formatted at most once per second. Each server owns one; any
 * thread may call it.
 */
public final class HttpDate {

    private record Formatted(long second, String text) {
    }

    private final Clock clock;
    private volatile Formatted current = new Formatted(Long.MIN_VALUE, "");

    public HttpDate(Clock clock) {
        this.clock = clock;
    }

    public String now() {
        long millis = clock.millis();
        long second = millis / 1000;
        Formatted formatted = current;
        if (formatted.second != second) {
            String text = DateTimeFormatter.RFC_1123_DATE_TIME.format(
                    java.time.Instant.ofEpochSecond(second).atOffset(ZoneOffset.UTC));
            formatted = new Formatted(second, text);
            current = formatted;
        }
        return formatted.text;
    }
}
