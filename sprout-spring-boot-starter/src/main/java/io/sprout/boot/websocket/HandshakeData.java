package io.sprout.boot.websocket;

import java.net.URI;
import java.security.Principal;
import java.util.List;
import java.util.Map;

/**
 * What a session keeps of its opening handshake, copied from the servlet request before the request object is
 * recycled.
 *
 * @param requestUri the request URI with the {@code ws}/{@code wss} scheme, host, path and query
 * @param queryString the raw query, or {@code null}
 * @param parameters the query parameters
 * @param pathParameters the endpoint path's variables
 * @param principal the authenticated user, or {@code null}
 * @param secure whether the handshake came over TLS
 * @param subprotocol the agreed subprotocol, or {@code null}
 */
record HandshakeData(URI requestUri, String queryString, Map<String, List<String>> parameters,
        Map<String, String> pathParameters, Principal principal, boolean secure, String subprotocol) {
}
