package io.sprout.boot.servlet;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;

import java.util.Locale;

/** The response an included servlet sees: it may write the body but not change status or headers (spec 9.3). */
final class IncludeResponse extends HttpServletResponseWrapper {

    IncludeResponse(HttpServletResponse response) {
        super(response);
    }

    @Override
    public void setStatus(int sc) {
    }

    @Override
    public void setHeader(String name, String value) {
    }

    @Override
    public void addHeader(String name, String value) {
    }

    @Override
    public void setIntHeader(String name, int value) {
    }

    @Override
    public void addIntHeader(String name, int value) {
    }

    @Override
    public void setDateHeader(String name, long date) {
    }

    @Override
    public void addDateHeader(String name, long date) {
    }

    @Override
    public void addCookie(Cookie cookie) {
    }

    @Override
    public void setContentType(String type) {
    }

    @Override
    public void setContentLength(int len) {
    }

    @Override
    public void setContentLengthLong(long len) {
    }

    @Override
    public void setCharacterEncoding(String charset) {
    }

    @Override
    public void setLocale(Locale locale) {
    }

    @Override
    public void reset() {
    }
}
