package io.sprout.boot.servlet.http;

import io.sprout.boot.servlet.session.SproutSession;
import jakarta.servlet.SessionCookieConfig;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpSession;

/**
 * A request's view of its session: the id the client sent (in the session cookie, or with URL tracking in a
 * {@code ;jsessionid=} path parameter), the session found or created, and the {@code Set-Cookie} that announces a
 * new or changed id.
 */
final class RequestSession {

    private final ExchangeEnvironment environment;
    private final SproutRequest request;
    private SproutSession session;
    private String requestedId;
    private boolean requestedIdRead;
    private boolean fromCookie;
    private boolean fromUrl;

    /**
     * @param request asked for its raw path (path parameters included) and, only when a cookie is announced, whether
     *     it came over HTTPS, which marks a new session cookie {@code Secure}
     */
    RequestSession(ExchangeEnvironment environment, SproutRequest request) {
        this.environment = environment;
        this.request = request;
    }

    /**
     * The requested id, decided once as Tomcat decides it: the URL's id when URL tracking is on, replaced by the
     * session cookie's when the URL has none or names no live session (of several cookies, the first naming a live
     * session, else the first).
     */
    String requestedId(Cookie[] cookies) {
        if (!requestedIdRead) {
            requestedIdRead = true;
            if (environment.urlSessionTracking()) {
                requestedId = SessionUrls.idIn(request.engineRequest().path());
                fromUrl = requestedId != null;
            }
            if (environment.cookieSessionTracking() && cookies != null
                    && (requestedId == null || !environment.sessions().exists(requestedId))) {
                String cookieId = fromCookies(cookies);
                if (cookieId != null) {
                    requestedId = cookieId;
                    fromCookie = true;
                    fromUrl = false;
                }
            }
        }
        return requestedId;
    }

    boolean fromCookie(Cookie[] cookies) {
        requestedId(cookies);
        return fromCookie;
    }

    boolean fromUrl(Cookie[] cookies) {
        requestedId(cookies);
        return fromUrl;
    }

    private String fromCookies(Cookie[] cookies) {
        String name = environment.sessionCookieConfig().getName();
        String first = null;
        for (Cookie cookie : cookies) {
            if (cookie.getName().equals(name)) {
                if (environment.sessions().exists(cookie.getValue())) {
                    return cookie.getValue();
                }
                first = first == null ? cookie.getValue() : first;
            }
        }
        return first;
    }

    HttpSession get(boolean create, Cookie[] cookies, SproutResponse response) {
        if (session != null && session.isValid()) {
            return session;
        }
        session = environment.sessions().find(requestedId(cookies));
        if (session != null || !create) {
            return session;
        }
        if (response.isCommitted()) {
            throw new IllegalStateException("Cannot create a session after the response has been committed");
        }
        session = environment.sessions().create();
        announce(response);
        return session;
    }

    String changeId(Cookie[] cookies, SproutResponse response) {
        if (get(false, cookies, response) == null) {
            throw new IllegalStateException("changeSessionId() needs a session, and this request has none");
        }
        String id = environment.sessions().changeId(session);
        announce(response);
        return id;
    }

    boolean requestedIdValid(Cookie[] cookies) {
        String id = requestedId(cookies);
        return id != null && environment.sessions().exists(id);
    }

    /**
     * Sends the session cookie, built from the context's session cookie config. Over HTTPS it is {@code Secure}
     * whatever the config says, as Tomcat and Jetty make it: a session begun over TLS must not leak over plain HTTP.
     */
    private void announce(SproutResponse response) {
        if (!environment.cookieSessionTracking()) {
            return;
        }
        SessionCookieConfig config = environment.sessionCookieConfig();
        Cookie cookie = new Cookie(config.getName(), session.getId());
        String contextPath = environment.contextPath();
        cookie.setPath(config.getPath() != null ? config.getPath() : contextPath.isEmpty() ? "/" : contextPath);
        config.getAttributes().forEach((name, value) -> {
            if (!name.equalsIgnoreCase("Path")) {
                cookie.setAttribute(name, value);
            }
        });
        if (request.isSecure()) {
            cookie.setSecure(true);
        }
        response.addCookie(cookie);
    }
}
