package io.sprout.boot.servlet;

/**
 * The one list of Servlet 6.1 features Sprout does not implement, each with the reason. Every unsupported method
 * throws the exception built here, so the message always says what is missing and why.
 *
 * <table>
 *   <caption>Unsupported Servlet API</caption>
 *   <tr><th>feature</th><th>methods</th><th>why</th></tr>
 *   <tr><td>JSP</td><td>{@code ServletContext.addJspFile}, {@code getJspConfigDescriptor} returns {@code null}</td>
 *       <td>Sprout hosts Spring MVC applications; JSP needs a compiler (Jasper) that is out of scope</td></tr>
 *   <tr><td>response trailers</td><td>{@code HttpServletResponse.setTrailerFields}</td>
 *       <td>the engine's response API has no trailer fields</td></tr>
 *   <tr><td>container security</td><td>{@code login}, {@code authenticate}, {@code ServletRegistration.Dynamic
 *       .setServletSecurity}, {@code declareRoles}</td>
 *       <td>Spring applications use Spring Security filters; {@code logout} is a no-op and {@code
 *       getUserPrincipal}/{@code getRemoteUser} return {@code null}, {@code isUserInRole} {@code false}</td></tr>
 *   <tr><td>cross-context dispatch</td><td>{@code ServletContext.getContext} returns {@code null} for other
 *       paths</td><td>one server hosts exactly one context</td></tr>
 *   <tr><td>URL session tracking</td><td>{@code SessionTrackingMode.URL} and {@code SSL} in
 *       {@code setSessionTrackingModes}</td><td>only cookie tracking is implemented</td></tr>
 *   <tr><td>session persistence</td><td>{@code server.servlet.session.persistent=true}</td>
 *       <td>sessions live in memory only; start-up fails rather than silently dropping sessions</td></tr>
 *   <tr><td>default servlet</td><td>{@code server.servlet.register-default-servlet=true}</td>
 *       <td>no file-serving servlet; Spring MVC serves static resources itself (start-up fails if enabled)</td></tr>
 *   <tr><td>SSL and HTTP/2</td><td>{@code server.ssl.*}, {@code server.http2.enabled}</td>
 *       <td>a later issue; start-up fails with {@code IllegalStateException} naming the property</td></tr>
 * </table>
 *
 * <p>Also intentionally inert rather than failing: {@code encodeURL}/{@code encodeRedirectURL} return the URL
 * unchanged (cookie tracking only), {@code SessionCookieConfig.setComment} is ignored (removed from cookies by
 * RFC 6265), {@code AsyncContext.dispatch(ServletContext, String)} accepts only this context.
 */
public final class Unsupported {

    private Unsupported() {
    }

    /**
     * @param feature what the caller asked for, e.g. {@code "HttpServletRequest.upgrade"}
     * @param reason why Sprout does not offer it
     */
    public static UnsupportedOperationException feature(String feature, String reason) {
        return new UnsupportedOperationException(
                "Sprout does not support " + feature + ": " + reason + " (see io.sprout.boot.servlet.Unsupported)");
    }

    public static UnsupportedOperationException jsp() {
        return feature("JSP", "no JSP engine is embedded");
    }

    public static UnsupportedOperationException responseTrailers() {
        return feature("HttpServletResponse.setTrailerFields", "the engine cannot send response trailers");
    }

    public static UnsupportedOperationException containerSecurity(String method) {
        return feature(method, "container-managed security is not implemented; use Spring Security");
    }

    public static UnsupportedOperationException sessionTracking(Object mode) {
        return feature("session tracking mode " + mode, "only COOKIE tracking is implemented");
    }

    public static UnsupportedOperationException sessionPersistence() {
        return feature("persistent sessions (server.servlet.session.persistent)", "sessions are kept in memory");
    }
}
