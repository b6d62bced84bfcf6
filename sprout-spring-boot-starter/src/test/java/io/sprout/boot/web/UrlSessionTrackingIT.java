package io.sprout.boot.web;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.web.server.servlet.Session;
import org.springframework.boot.web.server.servlet.Session.SessionTrackingMode;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.Set;

import static io.sprout.boot.web.WebServerUnderTest.servlet;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * URL session tracking ({@code server.servlet.session.tracking-modes=url}) in every engine combination:
 * {@code encodeURL} adds {@code ;jsessionid=}, an incoming one finds the session and is parsed off the path before
 * mapping, and none of it happens unless the application asked for URL tracking.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("io.sprout.boot.web.Engines#all")
class UrlSessionTrackingIT {

    @Parameter
    Engines engines;

    private WebServerUnderTest server;

    @AfterEach
    void destroy() {
        if (server != null) {
            server.close();
        }
    }

    /** Prints the session id, the visits, where the id came from and what {@code encodeURL} makes of a link. */
    private static HttpServlet cart() {
        return new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                HttpSession session = req.getSession();
                Integer visits = (Integer) session.getAttribute("visits");
                session.setAttribute("visits", visits == null ? 1 : visits + 1);
                resp.getWriter().print(session.getId() + "|" + session.getAttribute("visits") + "|"
                        + req.isRequestedSessionIdFromURL() + "|" + req.isRequestedSessionIdFromCookie() + "|"
                        + req.getServletPath() + "|" + resp.encodeURL("/cart?item=1") + "|"
                        + resp.encodeURL("http://elsewhere.test/cart"));
            }
        };
    }

    private static HttpServlet redirecting() {
        return new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                req.getSession();
                resp.sendRedirect(resp.encodeRedirectURL("/cart"));
            }
        };
    }

    private void start(SessionTrackingMode... modes) {
        SproutServletWebServerFactory factory = WebServerUnderTest.factory(engines);
        if (modes.length > 0) {
            Session session = new Session();
            session.setTrackingModes(Set.of(modes));
            factory.setSession(session);
        }
        server = WebServerUnderTest.start(factory, servlet("/cart", cart()), servlet("/go", redirecting()));
    }

    private static String[] fields(HttpResponse<String> response) {
        return response.body().split("\\|");
    }

    @Test
    void encodesTheIdIntoUrlsAndFindsTheSessionByIt() {
        start(SessionTrackingMode.URL);
        HttpResponse<String> first = server.get("/cart");
        String id = fields(first)[0];
        assertThat(first.headers().firstValue("Set-Cookie")).as("no cookie without cookie tracking").isEmpty();
        assertThat(first.body()).isEqualTo(id + "|1|false|false|/cart|/cart;jsessionid=" + id + "?item=1"
                + "|http://elsewhere.test/cart");

        HttpResponse<String> second = server.get("/cart;jsessionid=" + id);
        assertThat(second.statusCode()).isEqualTo(200);
        assertThat(second.body()).startsWith(id + "|2|true|false|/cart|");
    }

    @Test
    void encodesRedirects() {
        start(SessionTrackingMode.URL);
        HttpResponse<String> redirect = server.get("/go");
        assertThat(redirect.statusCode()).isEqualTo(302);
        assertThat(redirect.headers().firstValue("Location")).hasValueSatisfying(
                location -> assertThat(location).matches("http://127\\.0\\.0\\.1:\\d+/cart;jsessionid=\\w+"));
    }

    @Test
    void withCookiesTooStopsEncodingOnceTheCookieComesBack() {
        start(SessionTrackingMode.COOKIE, SessionTrackingMode.URL);
        HttpResponse<String> first = server.get("/cart");
        String id = fields(first)[0];
        assertThat(fields(first)[5]).isEqualTo("/cart;jsessionid=" + id + "?item=1");
        String cookie = first.headers().firstValue("Set-Cookie").orElseThrow().split(";")[0];
        HttpResponse<String> second = server.get("/cart", "Cookie", cookie);
        assertThat(second.body()).isEqualTo(id + "|2|false|true|/cart|/cart?item=1|http://elsewhere.test/cart");
    }

    @Test
    void ignoresUrlIdsUnlessUrlTrackingIsOn() {
        start();
        HttpResponse<String> first = server.get("/cart");
        String id = fields(first)[0];
        assertThat(fields(first)[5]).isEqualTo("/cart?item=1");
        HttpResponse<String> second = server.get("/cart;jsessionid=" + id);
        assertThat(fields(second)[0]).isNotEqualTo(id);
        assertThat(fields(second)[1]).isEqualTo("1");
        assertThat(fields(second)[2]).isEqualTo("false");
    }
}
