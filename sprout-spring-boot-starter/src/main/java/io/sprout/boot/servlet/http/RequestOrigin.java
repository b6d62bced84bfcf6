package io.sprout.boot.servlet.http;

import io.sprout.boot.forwarded.ForwardedHeaders;
import io.sprout.boot.forwarded.HostAndPort;
import io.sprout.engine.HttpRequest;

import java.net.InetSocketAddress;

/**
 * Where a request came from and what it was addressed to: scheme, host, port and client address, taken from the
 * connection ({@code https} over TLS), the {@code Host} header (a {@code Host} without a port means the scheme's
 * default port, as on Tomcat; the socket's local address and port only stand in when there is no {@code Host} at
 * all, as in HTTP/1.0) and the socket, or, with {@code server.forward-headers-strategy=native}, from a trusted
 * proxy's {@code Forwarded} / {@code X-Forwarded-*} headers as {@link ForwardedHeaders} reads them.
 *
 * <p>The values are applied as Tomcat's {@code RemoteIpValve} applies them: a forwarded scheme without a forwarded
 * port or host port means that scheme's default port, and the client's port stays the socket's.
 * {@code X-Forwarded-Prefix} is not applied: Tomcat does not, and Servlet applications get it from Spring's
 * {@code ForwardedHeaderFilter} ({@code framework}).
 */
public record RequestOrigin(String scheme, String serverName, int serverPort, String remoteAddr, int remotePort) {

    public static RequestOrigin of(HttpRequest request, boolean useForwardHeaders) {
        InetSocketAddress local = request.localAddress();
        InetSocketAddress remote = request.remoteAddress();
        String hostHeader = request.headers().get("Host");
        HostAndPort host = hostHeader == null ? null : HostAndPort.parse(hostHeader);
        String serverName = host == null ? local.getAddress().getHostAddress() : host.host();
        int serverPort = host == null ? local.getPort()
                : host.hasPort() ? host.port() : defaultPort(request.scheme());
        RequestOrigin direct = new RequestOrigin(request.scheme(), serverName, serverPort,
                remote.getAddress().getHostAddress(), remote.getPort());
        ForwardedHeaders forwarded = useForwardHeaders ? ForwardedHeaders.fromTrustedProxy(request)
                : ForwardedHeaders.NONE;
        return forwarded.isEmpty() ? direct : direct.forwarded(forwarded);
    }

    private RequestOrigin forwarded(ForwardedHeaders forwarded) {
        String newScheme = forwarded.proto() == null ? scheme : forwarded.proto();
        String newName = forwarded.host() == null ? serverName : forwarded.host().host();
        String newRemote = forwarded.client() == null ? remoteAddr : forwarded.client().host();
        return new RequestOrigin(newScheme, newName, portFor(newScheme, forwarded), newRemote, remotePort);
    }

    private int portFor(String newScheme, ForwardedHeaders forwarded) {
        if (forwarded.port() >= 0) {
            return forwarded.port();
        }
        if (forwarded.host() != null && forwarded.host().hasPort()) {
            return forwarded.host().port();
        }
        if (forwarded.host() != null || forwarded.proto() != null) {
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
}
