package io.sprout.boot.forwarded;

/**
 * A host and optional port as written in {@code Host}, {@code X-Forwarded-Host}, {@code X-Forwarded-For} or a
 * {@code Forwarded} {@code host=} / {@code for=} parameter: {@code example.com}, {@code example.com:8443},
 * {@code [2001:db8::1]:4711}, {@code 192.0.2.7}, or a bare IPv6 address as proxies write it in
 * {@code X-Forwarded-For} ({@code 2001:db8::1}), which has no port.
 *
 * @param host the host as written, an IPv6 literal with its brackets if it had them
 * @param port the port, or -1 when none was written or it was not a number (then the caller's default applies,
 *             as Reactor Netty's lenient address parsing does)
 */
public record HostAndPort(String host, int port) {

    public static HostAndPort parse(String value) {
        int close = value.lastIndexOf(']');
        int colon = value.lastIndexOf(':');
        // Without brackets, a second colon means an IPv6 address, which then cannot carry a port.
        boolean hasPort = colon > close && (close >= 0 || colon == value.indexOf(':'));
        if (!hasPort) {
            return new HostAndPort(value, -1);
        }
        return new HostAndPort(value.substring(0, colon), port(value.substring(colon + 1)));
    }

    /** {@code digits} as a port, or -1 when it is empty, not all ASCII digits, or out of range. */
    static int port(String digits) {
        if (digits.isEmpty() || digits.length() > 5 || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return -1;
        }
        int port = Integer.parseInt(digits);
        return port <= 65_535 ? port : -1;
    }

    public boolean hasPort() {
        return port >= 0;
    }
}
