package io.sprout.boot.servlet.http;

import io.sprout.boot.compression.CompressionPolicy;
import io.sprout.boot.servlet.session.SessionStore;
import jakarta.servlet.ServletContext;
import jakarta.servlet.SessionCookieConfig;
import jakarta.servlet.http.Cookie;

import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.Locale;

/**
 * What a request and response need from the context they run in. The servlet context implements it; unit tests
 * implement it with a few fields.
 */
public interface ExchangeEnvironment {

    ServletContext servletContext();

    /** {@code ""} for the root context, else {@code /name}. */
    String contextPath();

    SessionStore sessions();

    SessionCookieConfig sessionCookieConfig();

    /** Whether sessions are tracked by cookie (the default). */
    boolean cookieSessionTracking();

    /** Whether sessions are tracked by {@code ;jsessionid=} in URLs (only when the application enables it). */
    boolean urlSessionTracking();

    /** The context's default request character encoding, or {@code null}. */
    String requestCharacterEncoding();

    /** The context's default response character encoding, or {@code null}. */
    String responseCharacterEncoding();

    /** The charset configured for a locale ({@code server.servlet.encoding.mapping}), or {@code null}. */
    Charset charsetFor(Locale locale);

    /** The SameSite value for a cookie that sets none itself, or {@code null}. */
    String sameSite(Cookie cookie);

    /** How to compress responses, or {@code null} when compression is off. */
    CompressionPolicy compression();

    /** The directory relative multipart locations resolve against. */
    Path tempDirectory();

    /** The default {@code AsyncContext} timeout in milliseconds (zero or less: none). */
    long asyncTimeoutMillis();

    /**
     * A new id for {@code ServletRequest.getRequestId()}, unique within this server: a number, which the request
     * formats only if asked.
     */
    long nextRequestId();

    /**
     * Tells {@code ServletRequestAttributeListener}s about a change: {@code old == null} is an addition,
     * {@code value == null} a removal, otherwise a replacement.
     */
    void requestAttributeChanged(jakarta.servlet.ServletRequest request, String name, Object value, Object old);
}
