package io.sprout.engine.http;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * The {@code Date} header value (IMF-fixdate), formatted at most once per second. Each server owns one; any
 * thread may call it.
 *
 * <p>Public because exchange's {@code ServerContext} keeps one per server and {@code ErrorResponses} dates error
 * answers with it.
 */
public final class HttpDate {

    /** IMF-fixdate (RFC 9110 §5.6.7); unlike RFC_1123_DATE_TIME it pads the day of month to two digits. */
    private static final DateTimeFormatter IMF_FIXDATE =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);

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
            String text = IMF_FIXDATE.format(Instant.ofEpochSecond(second));
            formatted = new Formatted(second, text);
            current = formatted;
        }
        return formatted.text;
    }
}
