package io.sprout.boot.websocket;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.websocket.DeploymentException;

import java.io.IOException;

/**
 * Upgrades requests for deployed endpoints before any other filter or servlet sees them, as Tomcat's
 * {@code WsFilter} does: a request asking for a WebSocket ({@code Upgrade: websocket}) whose path matches an
 * endpoint gets the handshake; every other request passes through untouched. Registered first, for REQUEST
 * dispatches only.
 */
final class WebSocketUpgradeFilter implements Filter {

    static final String NAME = "sproutWebSocketUpgradeFilter";

    private final SproutServerContainer container;

    WebSocketUpgradeFilter(SproutServerContainer container) {
        this.container = container;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (request instanceof HttpServletRequest http && response instanceof HttpServletResponse httpResponse
                && asksForWebSocket(http)) {
            String path = http.getServletPath() + (http.getPathInfo() == null ? "" : http.getPathInfo());
            EndpointRegistry.Match match = container.match(path);
            if (match != null) {
                try {
                    container.upgradeHttpToWebSocket(http, httpResponse, match.config(), match.pathParameters());
                } catch (DeploymentException e) {
                    throw new ServletException("Cannot open the WebSocket endpoint at " + path, e);
                }
                return;
            }
        }
        chain.doFilter(request, response);
    }

    private static boolean asksForWebSocket(HttpServletRequest request) {
        String upgrade = request.getHeader("Upgrade");
        if (upgrade == null) {
            return false;
        }
        for (String token : upgrade.split(",")) {
            if (token.trim().equalsIgnoreCase("websocket")) {
                return true;
            }
        }
        return false;
    }
}
