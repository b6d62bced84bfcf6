package io.sprout.boot.servlet.http;

import io.sprout.engine.HttpRequest;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Locale;

/**
 * Where a request came from and what it was addressed to: scheme, host, port and client address, taken from the
 * connection ({@code https} over TLS), the {@code Host} header (a {@code Host} without a port means the scheme's
 * default port, as on Tomcat; the socket's local address and port only stand in when there is no {@code Host} at
 * all, as in HTTP/1.0) and the socket, or, with
 * {@code server.forward-headers-strategy=native}, from {@code Forwarded} / {@code X-Forwarded-*} headers.
 *
 * <p>Forwarded headers are trusted only when the peer is a loopback, site-local or link-local address, the same
 * internal-proxy rule Tomcat's {@code RemoteIpValve} applies by default; a public client cannot spoof them.
 */
public record RequestOrigin(String scheme, String serverName, int serverPort, String remoteAddr, int remotePort) {

    public static RequestOrigin of(HttpRequest request, boolean useForwardHeaders) {
        InetSocketAddress local = request.localAddress();
        InetSocketAddress remote = request.remoteAddress();
        String host = request.headers().get("Host");
        String serverName = host == null ? local.getAddress().getHostAddress() : hostName(host);
        int hostPort = host == null ? -1 : hostPort(host);
        int serverPort = host == null ? local.getPort() : hostPort >= 0 ? hostPort : defaultPort(request.scheme());
        RequestOrigin direct = new RequestOrigin(request.scheme(), serverName, serverPort,
                remote.getAddress().getHostAddress(), remote.getPort());
        if (!useForwardHeaders || !trustedProxy(remote.getAddress())) {
            return direct;
        }
        return direct.forwarded(request);
    }

    private RequestOrigin forwarded(HttpRequest request) {
        String forwarded = request.headers().get("Forwarded");
        String proto;
        String forwardedHost;
        String forwardedFor;
        String forwardedPort = null;
        if (forwarded != null) {
            String first = forwarded.split(",")[0];
            proto = parameter(first, "proto");
            forwardedHost = parameter(first, "host");
            forwardedFor = parameter(first, "for");
        } else {
            proto = firstValue(request.headers().get("X-Forwarded-Proto"));
            forwardedHost = firstValue(request.headers().get("X-Forwarded-Host"));
            forwardedFor = firstValue(request.headers().get("X-Forwarded-For"));
            forwardedPort = firstValue(request.headers().get("X-Forwarded-Port"));
        }
        String newScheme = proto == null ? scheme : proto.toLowerCase(Locale.ROOT);
        String newName = forwardedHost == null ? serverName : hostName(forwardedHost);
        int newPort = portFor(newScheme, forwardedHost, forwardedPort, proto != null);
        String newRemote = forwardedFor == null ? remoteAddr : hostName(forwardedFor);
        return new RequestOrigin(newScheme, newName, newPort, newRemote, remotePort);
    }

    private int portFor(String newScheme, String forwardedHost, String forwardedPort, boolean schemeForwarded) {
        if (forwardedPort != null) {
            try {
                return Integer.parseInt(forwardedPort);
            } catch (NumberFormatException ignored) {
                // A garbled port header is ignored like a missing one.
            }
        }
        if (forwardedHost != null && hostPort(forwardedHost) >= 0) {
            return hostPort(forwardedHost);
        }
        if (forwardedHost != null || schemeForwarded) {
            return defaultPort(newScheme);
        }
        return serverPort;
    }

    /**
     * A {@code Host} without a port names the scheme's default one (RFC 9110, 4.2): the client reached the server
     * through a proxy or a port mapping, so the port it connected to is not the one it asked for.
     */
    private static int defaultPort(String scheme) {
        return scheme.equals("https") ? 443 : 80;
    }

    private static boolean trustedProxy(InetAddress address) {
        return address.isLoopbackAddress() || address.isSiteLocalAddress() || address.isLinkLocalAddress();
    }

    private static String parameter(String element, String name) {
        for (String pair : element.split(";")) {
            int equals = pair.indexOf('=');
            if (equals > 0 && pair.substring(0, equals).trim().equalsIgnoreCase(name)) {
                String value = pair.substring(equals + 1).trim();
                return value.startsWith("\"") && value.endsWith("\"") && value.length() >= 2
                        ? value.substring(1, value.length() - 1) : value;
            }
        }
        return null;
    }

    private static String firstValue(String header) {
        if (header == null) {
            return null;
        }
        String first = header.split(",")[0].trim();
        return first.isEmpty() ? null : first;
    }

    static String hostName(String host) {
        if (host.startsWith("[")) {
            int end = host.indexOf(']');
            return end < 0 ? host : host.substring(0, end + 1);
        }
        int colon = host.indexOf(':');
        return colon < 0 ? host : host.substring(0, colon);
    }

    static int hostPort(String host) {
        int close = host.lastIndexOf(']');
        int colon = host.lastIndexOf(':');
        if (colon <= close || colon == host.length() - 1) {
            return -1;
        }
        try {
            return Integer.parseInt(host.substring(colon + 1));
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
