package io.sprout.boot.forwarded;

import io.sprout.engine.Headers;
import io.sprout.engine.HttpRequest;

import java.net.InetAddress;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * What the proxy in front said about the original request, read as Reactor Netty's
 * {@code DefaultHttpForwardedHeaderHandler} reads it (and as Sprout's Servlet side always did):
 * <ul>
 * <li>{@code Forwarded} (RFC 7239), when present, is the only source: its first element's {@code proto},
 *     {@code host} and {@code for}; {@code X-Forwarded-*} are then ignored, {@code X-Forwarded-Port} and
 *     {@code X-Forwarded-Prefix} included. Parameter names are case-insensitive, values may be quoted.</li>
 * <li>Otherwise {@code X-Forwarded-Proto}, {@code -Host}, {@code -Port} and {@code -For}, the first value of each
 *     comma-separated list (the client end: every proxy appends its own), and {@code X-Forwarded-Prefix}.</li>
 * <li>A scheme that is not one ({@code [a-zA-Z][a-zA-Z0-9+.-]*}), a port that is not a number and a prefix that
 *     does not start with {@code /} are ignored. Reactor Netty answers 400 to those instead; ignoring is what
 *     Tomcat does and what Sprout's Servlet side did, and a bad proxy header should not cost the client its
 *     answer.</li>
 * </ul>
 * Only a loopback, site-local or link-local peer is trusted to send them (Tomcat's {@code RemoteIpValve} default),
 * so a client on the internet cannot spoof its address or scheme. Reactor Netty trusts every peer; Sprout keeps
 * one rule for both of its sides.
 *
 * <p>Values only: read on the worker that handles the request, never blocking (no address is resolved here).
 *
 * @param proto  the original scheme, lower case, or {@code null}
 * @param host   the host (and port) the client addressed, or {@code null}
 * @param port   {@code X-Forwarded-Port}, or -1
 * @param client the client's address (and port), or {@code null}
 * @param prefix {@code X-Forwarded-Prefix} without trailing slashes, or {@code null}
 */
public record ForwardedHeaders(String proto, HostAndPort host, int port, HostAndPort client, String prefix) {

    /** No proxy said anything, or none that is trusted. */
    public static final ForwardedHeaders NONE = new ForwardedHeaders(null, null, -1, null, null);

    private static final Pattern SCHEME = Pattern.compile("[a-zA-Z][a-zA-Z0-9+.-]*");

    /** The forwarded headers of {@code request}, or {@link #NONE} when its peer is not a trusted proxy. */
    public static ForwardedHeaders fromTrustedProxy(HttpRequest request) {
        InetAddress peer = request.remoteAddress().getAddress();
        if (peer == null || !(peer.isLoopbackAddress() || peer.isSiteLocalAddress() || peer.isLinkLocalAddress())) {
            return NONE;
        }
        return parse(request.headers());
    }

    /** The forwarded headers among {@code headers}, trusted or not. */
    public static ForwardedHeaders parse(Headers headers) {
        String forwarded = headers.get("Forwarded");
        if (forwarded != null) {
            String first = forwarded.split(",", 2)[0];
            return new ForwardedHeaders(scheme(parameter(first, "proto")), hostAndPort(parameter(first, "host")),
                    -1, hostAndPort(parameter(first, "for")), null);
        }
        String port = firstValue(headers.get("X-Forwarded-Port"));
        return new ForwardedHeaders(scheme(firstValue(headers.get("X-Forwarded-Proto"))),
                hostAndPort(firstValue(headers.get("X-Forwarded-Host"))), port == null ? -1 : HostAndPort.port(port),
                hostAndPort(firstValue(headers.get("X-Forwarded-For"))), prefix(headers.get("X-Forwarded-Prefix")));
    }

    public boolean isEmpty() {
        return proto == null && host == null && port < 0 && client == null && prefix == null;
    }

    private static String parameter(String element, String name) {
        for (String pair : element.split(";")) {
            int equals = pair.indexOf('=');
            if (equals > 0 && pair.substring(0, equals).trim().equalsIgnoreCase(name)) {
                String value = pair.substring(equals + 1).trim();
                return value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")
                        ? value.substring(1, value.length() - 1) : value;
            }
        }
        return null;
    }

    private static String firstValue(String header) {
        if (header == null) {
            return null;
        }
        String first = header.split(",", 2)[0].trim();
        return first.isEmpty() ? null : first;
    }

    private static String scheme(String value) {
        return value != null && SCHEME.matcher(value).matches() ? value.toLowerCase(Locale.ROOT) : null;
    }

    private static HostAndPort hostAndPort(String value) {
        return value == null || value.isEmpty() ? null : HostAndPort.parse(value);
    }

    /**
     * As Reactor Netty (and Spring's {@code ForwardedHeaderTransformer}) join them: every comma-separated value,
     * trailing slashes removed, one after the other ({@code /a, /b/} is {@code /a/b}); {@code null} when that is
     * empty or does not start with {@code /}.
     */
    private static String prefix(String header) {
        if (header == null) {
            return null;
        }
        StringBuilder joined = new StringBuilder();
        for (String part : header.split(",")) {
            String value = part.trim();
            int end = value.length();
            while (end > 1 && value.charAt(end - 1) == '/') {
                end--;
            }
            joined.append(value, 0, end);
        }
        String prefix = joined.toString();
        // A lone "/" means no prefix; it would otherwise double the path's first slash.
        return prefix.startsWith("/") && !prefix.equals("/") ? prefix : null;
    }
}
