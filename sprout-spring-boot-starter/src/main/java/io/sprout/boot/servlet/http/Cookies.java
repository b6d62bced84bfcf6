package io.sprout.boot.servlet.http;

import jakarta.servlet.http.Cookie;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads {@code Cookie} request headers and writes {@code Set-Cookie} response headers (RFC 6265). Cookies with
 * names the Servlet API rejects are skipped, not fatal: one bad cookie from a browser must not fail a request.
 */
public final class Cookies {

    static final DateTimeFormatter HTTP_DATE =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);

    private Cookies() {
    }

    /** The cookies of every {@code Cookie} header value, in order. */
    public static List<Cookie> parse(List<String> headerValues) {
        List<Cookie> cookies = new ArrayList<>();
        for (String header : headerValues) {
            for (String pair : header.split(";")) {
                int equals = pair.indexOf('=');
                if (equals <= 0) {
                    continue;
                }
                String name = pair.substring(0, equals).trim();
                if (name.startsWith("$")) {
                    continue;
                }
                String value = unquote(pair.substring(equals + 1).trim());
                try {
                    cookies.add(new Cookie(name, value));
                } catch (IllegalArgumentException invalidName) {
                    // Skipped on purpose (see class comment).
                }
            }
        }
        return cookies;
    }

    /**
     * The {@code Set-Cookie} value for a cookie.
     *
     * @param sameSite the SameSite value to add when the cookie has none, or {@code null}
     */
    public static String format(Cookie cookie, String sameSite) {
        StringBuilder header = new StringBuilder(64);
        header.append(cookie.getName()).append('=').append(cookie.getValue() == null ? "" : cookie.getValue());
        Map<String, String> attributes = cookie.getAttributes();
        for (String known : ORDERED) {
            String value = attributes.get(known);
            if (value != null) {
                append(header, known, value);
            }
        }
        boolean hasSameSite = false;
        for (Map.Entry<String, String> attribute : attributes.entrySet()) {
            String name = attribute.getKey();
            if (ORDERED.stream().anyMatch(name::equalsIgnoreCase) || name.equalsIgnoreCase("Comment")
                    || name.equalsIgnoreCase("Expires")) {
                continue;
            }
            hasSameSite |= name.equalsIgnoreCase("SameSite");
            append(header, name, attribute.getValue());
        }
        if (!hasSameSite && sameSite != null) {
            header.append("; SameSite=").append(sameSite);
        }
        return header.toString();
    }

    /** Attributes written first, in the order browsers' developer tools and Tomcat show them. */
    private static final List<String> ORDERED = List.of("Max-Age", "Domain", "Path", "Secure", "HttpOnly");

    private static void append(StringBuilder header, String name, String value) {
        header.append("; ").append(canonical(name));
        if (value != null && !value.isEmpty()) {
            header.append('=').append(value);
        }
        if (name.equalsIgnoreCase("Max-Age") && value != null) {
            header.append("; Expires=").append(expires(Integer.parseInt(value)));
        }
    }

    private static String expires(int maxAge) {
        Instant when = maxAge <= 0 ? Instant.ofEpochSecond(10) : Instant.now().plusSeconds(maxAge);
        return HTTP_DATE.format(when);
    }

    private static String canonical(String attribute) {
        return switch (attribute.toLowerCase(Locale.ROOT)) {
            case "max-age" -> "Max-Age";
            case "domain" -> "Domain";
            case "path" -> "Path";
            case "secure" -> "Secure";
            case "httponly" -> "HttpOnly";
            case "samesite" -> "SameSite";
            case "partitioned" -> "Partitioned";
            default -> attribute;
        };
    }

    private static String unquote(String value) {
        return value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")
                ? value.substring(1, value.length() - 1) : value;
    }
}
