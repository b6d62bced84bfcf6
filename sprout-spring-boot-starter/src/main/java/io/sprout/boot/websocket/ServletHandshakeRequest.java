package io.sprout.boot.websocket;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.websocket.server.HandshakeRequest;

import java.net.URI;
import java.security.Principal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The opening handshake as a {@code Configurator.modifyHandshake} sees it: headers (names case-insensitive) and
 * parameters copied from the servlet request, which stays available for the session and the principal.
 */
final class ServletHandshakeRequest implements HandshakeRequest {

    private final HttpServletRequest request;
    private final URI requestUri;
    private final Map<String, List<String>> headers;
    private final Map<String, List<String>> parameters;

    ServletHandshakeRequest(HttpServletRequest request) {
        this.request = request;
        this.requestUri = requestUri(request);
        Map<String, List<String>> copy = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (String name : Collections.list(request.getHeaderNames())) {
            copy.put(name, List.copyOf(Collections.list(request.getHeaders(name))));
        }
        this.headers = Collections.unmodifiableMap(copy);
        Map<String, List<String>> values = new LinkedHashMap<>();
        request.getParameterMap().forEach((name, array) -> values.put(name, List.of(array)));
        this.parameters = Collections.unmodifiableMap(values);
    }

    /** {@code ws://} or {@code wss://}, host, path and query, as Tomcat reports it. */
    private static URI requestUri(HttpServletRequest request) {
        StringBuilder uri = new StringBuilder(request.getRequestURL());
        uri.replace(0, request.getScheme().length(), request.isSecure() ? "wss" : "ws");
        if (request.getQueryString() != null) {
            uri.append('?').append(request.getQueryString());
        }
        return URI.create(uri.toString());
    }

    /** What the session keeps once the handshake is done. */
    HandshakeData data(Map<String, String> pathParameters, String subprotocol) {
        return new HandshakeData(requestUri, request.getQueryString(), parameters, Map.copyOf(pathParameters),
                request.getUserPrincipal(), request.isSecure(), subprotocol);
    }

    /** The values of a comma-separated header, trimmed, over all its lines. */
    List<String> tokens(String name) {
        List<String> tokens = new ArrayList<>();
        for (String line : headers.getOrDefault(name, List.of())) {
            for (String token : line.split(",")) {
                if (!token.isBlank()) {
                    tokens.add(token.trim());
                }
            }
        }
        return tokens;
    }

    @Override
    public Map<String, List<String>> getHeaders() {
        return headers;
    }

    @Override
    public Principal getUserPrincipal() {
        return request.getUserPrincipal();
    }

    @Override
    public URI getRequestURI() {
        return requestUri;
    }

    @Override
    public boolean isUserInRole(String role) {
        return request.isUserInRole(role);
    }

    @Override
    public Object getHttpSession() {
        return request.getSession(false);
    }

    @Override
    public Map<String, List<String>> getParameterMap() {
        return parameters;
    }

    @Override
    public String getQueryString() {
        return request.getQueryString();
    }
}
