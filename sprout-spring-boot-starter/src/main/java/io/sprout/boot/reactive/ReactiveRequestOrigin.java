package io.sprout.boot.reactive;

import io.sprout.boot.forwarded.ForwardedHeaders;
import io.sprout.boot.forwarded.HostAndPort;
import io.sprout.engine.HttpRequest;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.regex.Pattern;

/**
 * What a WebFlux request says about where it came from: its URI, context path and client address. Without
 * forwarded headers to apply, the URI is the request's scheme, the {@code Host} the client sent (else the local
 * address it reached) and the raw path and query, as Spring's other adapters build it.
 *
 * <p>With {@code server.forward-headers-strategy=native} and a trusted proxy's headers ({@link ForwardedHeaders}),
 * they are applied as Reactor Netty's {@code ConnectionInfo} applies them, so an application moving from Netty sees
 * the same URI: a forwarded scheme alone keeps the {@code Host} port; a forwarded host without a port means the
 * (forwarded) scheme's default port; {@code X-Forwarded-Port} replaces the port; the port is left out of the URI when
 * it is the scheme's default; {@code X-Forwarded-Prefix} goes before the path and becomes the context path (as
 * Spring's {@code ReactorServerHttpRequest} uses Netty's {@code forwardedPrefix()}); a forwarded client address
 * keeps the socket's port unless it names one. The client address is resolved only when it is an IP literal, never
 * by a DNS lookup; a name such as {@code unknown} or an obfuscated {@code _hidden} stays unresolved.
 *
 * @param contextPath {@code ""}, or the forwarded prefix
 */
record ReactiveRequestOrigin(URI uri, String contextPath, InetSocketAddress remoteAddress) {

    /**
     * What the JDK parses as an address without a lookup: a dotted quad, or hex digits, dots and at least one colon
     * starting with a hex digit or colon, bare or in brackets (anything else it would try to resolve as a name).
     */
    private static final Pattern IP_LITERAL = Pattern.compile(
            "(25[0-5]|2[0-4]\\d|1?\\d?\\d)(\\.(25[0-5]|2[0-4]\\d|1?\\d?\\d)){3}"
                    + "|(?=[0-9a-fA-F.]*:)[0-9a-fA-F:][0-9a-fA-F:.]*"
                    + "|\\[(?=[0-9a-fA-F.]*:)[0-9a-fA-F:][0-9a-fA-F:.]*]");

    /** @throws URISyntaxException when the target, {@code Host} or a forwarded value does not make a URI */
    static ReactiveRequestOrigin of(HttpRequest request, boolean useForwardHeaders) throws URISyntaxException {
        String query = request.query();
        String pathAndQuery = request.path() + (query == null ? "" : "?" + query);
        ForwardedHeaders forwarded = useForwardHeaders ? ForwardedHeaders.fromTrustedProxy(request)
                : ForwardedHeaders.NONE;
        if (forwarded.isEmpty()) {
            URI uri = new URI(request.scheme() + "://" + directAuthority(request) + pathAndQuery);
            return new ReactiveRequestOrigin(uri, "", request.remoteAddress());
        }
        String scheme = forwarded.proto() == null ? request.scheme() : forwarded.proto();
        String prefix = forwarded.prefix() == null ? "" : forwarded.prefix();
        URI uri = new URI(scheme + "://" + forwardedAuthority(request, forwarded, scheme) + prefix + pathAndQuery);
        return new ReactiveRequestOrigin(uri, prefix, clientAddress(request, forwarded.client()));
    }

    private static String directAuthority(HttpRequest request) {
        String authority = request.headers().get("Host");
        if (authority == null || authority.isEmpty()) {
            InetSocketAddress local = request.localAddress();
            return bracketed(local.getAddress().getHostAddress()) + ":" + local.getPort();
        }
        return authority;
    }

    private static String forwardedAuthority(HttpRequest request, ForwardedHeaders forwarded, String scheme) {
        String name;
        int port;
        if (forwarded.host() != null) {
            name = forwarded.host().host();
            port = forwarded.host().hasPort() ? forwarded.host().port() : defaultPort(scheme);
        } else {
            String hostHeader = request.headers().get("Host");
            HostAndPort host = hostHeader == null || hostHeader.isEmpty() ? null : HostAndPort.parse(hostHeader);
            name = host == null ? request.localAddress().getAddress().getHostAddress() : host.host();
            port = host == null ? request.localAddress().getPort()
                    : host.hasPort() ? host.port() : defaultPort(request.scheme());
        }
        if (forwarded.port() >= 0) {
            port = forwarded.port();
        }
        return bracketed(name) + (port == defaultPort(scheme) ? "" : ":" + port);
    }

    private static InetSocketAddress clientAddress(HttpRequest request, HostAndPort client) {
        InetSocketAddress socket = request.remoteAddress();
        if (client == null) {
            return socket;
        }
        int port = client.hasPort() ? client.port() : socket.getPort();
        String host = client.host();
        if (IP_LITERAL.matcher(host).matches()) {
            try {
                // Parsed, never looked up: see IP_LITERAL.
                return new InetSocketAddress(InetAddress.getByName(host), port);
            } catch (UnknownHostException notALiteral) {
                // Not a valid address after all (":::::"): kept as the proxy wrote it, like any other name.
            }
        }
        return InetSocketAddress.createUnresolved(host, port);
    }

    /** The default port of {@code scheme}, as Reactor Netty counts it: 443 for https and wss, else 80. */
    private static int defaultPort(String scheme) {
        return scheme.equals("https") || scheme.equals("wss") ? 443 : 80;
    }

    /** An IPv6 address as a URI host: in brackets (an address from a socket has none, one from a header may). */
    private static String bracketed(String host) {
        return host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host;
    }
}
