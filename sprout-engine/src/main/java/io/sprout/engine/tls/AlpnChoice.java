package io.sprout.engine.tls;

import java.util.List;

/**
 * ALPN (RFC 7301) on the server's side: the application protocols this server can hand a connection to, most
 * preferred first, and the choice among those a client offers. The server's preference wins, as §3.2 allows, so a
 * client that offers {@code http/1.1} first still gets {@code h2} once the server serves it.
 */
record AlpnChoice(List<String> served) {

    AlpnChoice {
        served = List.copyOf(served);
    }

    /**
     * The first served protocol the client offered; {@code null} when there is none, which makes the JDK end the
     * handshake with {@code no_application_protocol}, as §3.2 asks, rather than speak a protocol the client did not
     * offer.
     */
    String select(List<String> offered) {
        for (String protocol : served) {
            if (offered.contains(protocol)) {
                return protocol;
            }
        }
        return null;
    }
}
