package io.sprout.boot.servlet;

/**
 * The one list of Servlet 6.1 features and server settings Sprout does not implement, each with the reason. Every
 * unsupported method or setting throws the {@link UnsupportedFeatureException} built here, so the message always
 * says what is missing, why, and what to do instead; at start-up Boot's failure report says the same.
 *
 * <table>
 *   <caption>Unsupported Servlet API and server settings</caption>
 *   <tr><th>feature</th><th>methods</th><th>why</th></tr>
 *   <tr><td>JSP</td><td>{@code ServletContext.addJspFile}, {@code getJspConfigDescriptor} returns {@code null}</td>
 *       <td>Sprout hosts Spring MVC applications; JSP needs a compiler (Jasper) that is out of scope</td></tr>
 *   <tr><td>container security</td><td>{@code login}, {@code authenticate}, {@code ServletRegistration.Dynamic
 *       .setServletSecurity}, {@code declareRoles}</td>
 *       <td>Spring applications use Spring Security filters; {@code logout} is a no-op and {@code
 *       getUserPrincipal}/{@code getRemoteUser} return {@code null}, {@code isUserInRole} {@code false}</td></tr>
 *   <tr><td>cross-context dispatch</td><td>{@code ServletContext.getContext} returns {@code null} for other
 *       paths</td><td>one server hosts exactly one context</td></tr>
 *   <tr><td>SSL session tracking</td><td>{@code SessionTrackingMode.SSL} in {@code setSessionTrackingModes}
 *       ({@code server.servlet.session.tracking-modes=ssl})</td>
 *       <td>it identifies the HTTP session by the TLS session id, and TLS 1.3 (what Java clients and browsers
 *       negotiate first) gives every connection a new one, so a session would end with its connection; Jetty does
 *       not offer it either. Cookie and URL tracking work over TLS as over plain HTTP</td></tr>
 *   <tr><td>HTTP/2 server push</td><td>{@code HttpServletRequest.newPushBuilder} returns {@code null}, as the
 *       Servlet API allows where push is not available</td>
 *       <td>push is deprecated in Servlet 6.1 and removed from browsers; HTTP/2 itself is served
 *       ({@code server.http2.enabled=true})</td></tr>
 *   <tr><td>WebSocket client</td><td>{@code WebSocketContainer.connectToServer} on the container in the
 *       {@code jakarta.websocket.server.ServerContainer} attribute</td>
 *       <td>Sprout's Jakarta WebSocket container is a server; {@code java.net.http.WebSocket} is the JDK's
 *       client</td></tr>
 * </table>
 *
 * <p>Also intentionally inert rather than failing: {@code encodeURL}/{@code encodeRedirectURL} return the URL
 * unchanged unless the application enabled URL tracking, {@code SessionCookieConfig.setComment} is ignored (removed
 * from cookies by RFC 6265), {@code AsyncContext.dispatch(ServletContext, String)} accepts only this context.
 */
public final class Unsupported {

    private Unsupported() {
    }

    /**
     * @param feature what the caller asked for, e.g. {@code "HttpServletRequest.upgrade"}
     * @param reason why Sprout does not offer it
     */
    public static UnsupportedFeatureException feature(String feature, String reason) {
        return feature(feature, reason, "Stop using " + feature + ", or run the application on Tomcat or Jetty.");
    }

    /**
     * @param action what the application can do instead, as a sentence
     */
    public static UnsupportedFeatureException feature(String feature, String reason, String action) {
        return new UnsupportedFeatureException(feature, reason, action);
    }

    public static UnsupportedFeatureException jsp() {
        return feature("JSP", "no JSP engine is embedded");
    }

    public static UnsupportedFeatureException containerSecurity(String method) {
        return feature(method, "container-managed security is not implemented; use Spring Security");
    }

    public static UnsupportedFeatureException sslSessionTracking() {
        return feature("session tracking mode SSL", "the TLS session id cannot identify an HTTP session: "
                + "TLS 1.3 gives every connection a new one, so the session would end with its connection",
                "Track sessions by cookie (the default) or URL, which work over HTTPS too: set "
                + "server.servlet.session.tracking-modes=cookie and/or url.");
    }

    public static UnsupportedFeatureException webSocketClient() {
        return feature("WebSocketContainer.connectToServer (a WebSocket client)", "Sprout's Jakarta WebSocket "
                + "container is a server only", "Connect with the JDK's java.net.http.WebSocket, or add a Jakarta "
                + "WebSocket client implementation and get its container from ContainerProvider.");
    }
}
