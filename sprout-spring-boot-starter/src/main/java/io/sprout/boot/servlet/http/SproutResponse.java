package io.sprout.boot.servlet.http;

import io.sprout.boot.compression.CompressionPolicy;
import io.sprout.engine.Headers;
import io.sprout.engine.HttpResponse;
import io.sprout.engine.server.Sprout;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@link HttpServletResponse} over an engine {@link HttpResponse}. Headers go straight into the engine's header
 * fields and body bytes into its buffer (the engine commits and ignores header changes after commit); the status,
 * {@code Content-Type} and {@code Content-Length} are kept here and handed over by a commit listener, which also
 * decides compression.
 *
 * <p>Used by the request's worker, or by one application thread at a time during async processing.
 */
public final class SproutResponse implements HttpServletResponse {

    private static final String CHARSET_PARAMETER = "charset=";

    private enum Output { NONE, STREAM, WRITER }


    private final HttpResponse engine;
    private final SproutRequest request;
    private final ExchangeEnvironment environment;
    private final ServletOutput body;
    private Supplier<Map<String, String>> trailers;
    private Output output = Output.NONE;
    private PrintWriter writer;
    private int status = 200;
    private boolean error;
    private String errorMessage;
    private String contentType;
    private String charset;
    private boolean charsetExplicit;
    private Locale locale;
    private long contentLength = -1;

    public SproutResponse(HttpResponse engine, SproutRequest request, ExchangeEnvironment environment) {
        this.engine = engine;
        this.request = request;
        this.environment = environment;
        this.body = new ServletOutput(engine, request);
        engine.beforeCommit(this::beforeCommit);
        request.response(this);
    }

    /**
     * The engine is about to commit: the status, {@code Content-Type}/{@code Content-Language} and declared length
     * modelled here go to the engine, and compression is decided. A 101 is the engine's (upgrade) and left alone.
     */
    private void beforeCommit(boolean complete, int buffered) {
        if (status == HttpServletResponse.SC_SWITCHING_PROTOCOLS) {
            return;
        }
        Headers headers = engine.headers();
        String type = getContentType();
        if (type != null) {
            headers.set("Content-Type", type);
        }
        if (locale != null) {
            headers.set("Content-Language", locale.toLanguageTag());
        }
        engine.status(status);
        boolean bodyless = status < 200 || status == 204 || status == 304;
        if (contentLength >= 0 && !bodyless) {
            engine.contentLength(contentLength);
        }
        long length = contentLength >= 0 ? contentLength : complete ? buffered : -1;
        CompressionPolicy compression = environment.compression();
        if (compression != null && !bodyless) {
            compression.compress(engine, request.getHeader("Accept-Encoding"), request.getHeader("User-Agent"),
                    length);
        }
    }

    /** The engine's response, for a protocol taking the connection over ({@link ConnectionTakeover}). */
    HttpResponse engine() {
        return engine;
    }

    /**
     * Completes the response: commits (with a length when the whole body is buffered) and closes the body.
     * The writer holds no characters of its own ({@link ResponseWriter} encodes straight into the buffer), so it
     * is not flushed: a flush would commit without a length. Container only.
     */
    public void finish() throws IOException {
        if (contentLength < 0 && !body.committed() && request.requestLineMethod().equals("HEAD")) {
            // As on Tomcat, a HEAD response announces only a length the application declared: committing before
            // the body completes keeps the engine from announcing the (empty) length of what was written.
            body.flush();
        }
        body.close();
    }

    /** Whether {@code sendError} is waiting for the container's error handling. */
    public boolean isError() {
        return error;
    }

    public String errorMessage() {
        return errorMessage;
    }

    /** Prepares for the error dispatch: output is accepted again and the buffer is empty. Container only. */
    public void beginErrorOutput() {
        error = false;
        body.resume();
        if (!body.committed()) {
            body.resetBuffer();
        }
    }

    public long bytesWritten() {
        return body.bytesWritten();
    }

    /** Non-blocking writing failed: a {@link jakarta.servlet.WriteListener} hears {@code onError}. Container only. */
    public void bodyFailed(Throwable cause) {
        body.failed(cause);
    }

    @Override
    public void addCookie(Cookie cookie) {
        if (!isCommitted()) {
            engine.headers().add("Set-Cookie", Cookies.format(cookie, environment.sameSite(cookie)));
        }
    }

    @Override
    public boolean containsHeader(String name) {
        if (name.equalsIgnoreCase("Content-Type")) {
            return contentType != null;
        }
        if (name.equalsIgnoreCase("Content-Length")) {
            return contentLength >= 0;
        }
        return engine.headers().contains(name);
    }

    /**
     * Adds {@code ;jsessionid=} when URL tracking is on, the request has a session whose id did not come in a cookie,
     * and the URL leads back into this context (Tomcat's rules); otherwise the URL is returned unchanged.
     */
    @Override
    public String encodeURL(String url) {
        if (url == null || !environment.urlSessionTracking() || request.isRequestedSessionIdFromCookie()) {
            return url;
        }
        HttpSession session = request.getSession(false);
        RequestOrigin origin = request.origin();
        if (session == null || !SessionUrls.pointsInto(url, origin.scheme(), origin.serverName(), origin.serverPort(),
                environment.contextPath())) {
            return url;
        }
        return SessionUrls.encode(url, session.getId());
    }

    @Override
    public String encodeRedirectURL(String url) {
        return encodeURL(url);
    }

    @Override
    public void sendError(int sc, String msg) throws IOException {
        checkNotCommitted("sendError");
        body.resetBuffer();
        status = sc;
        error = true;
        errorMessage = msg;
        body.suspend();
    }

    @Override
    public void sendError(int sc) throws IOException {
        sendError(sc, null);
    }

    @Override
    public void sendRedirect(String location, int sc, boolean clearBuffer) throws IOException {
        checkNotCommitted("sendRedirect");
        if (clearBuffer) {
            body.resetBuffer();
        }
        status = sc;
        engine.headers().set("Location", absolute(location));
        if (clearBuffer) {
            body.suspend();
        }
    }

    private String absolute(String location) {
        if (location.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
            return location;
        }
        RequestOrigin origin = request.origin();
        boolean defaultPort = (origin.scheme().equals("http") && origin.serverPort() == 80)
                || (origin.scheme().equals("https") && origin.serverPort() == 443);
        String authority = origin.serverName() + (defaultPort ? "" : ":" + origin.serverPort());
        if (location.startsWith("//")) {
            return origin.scheme() + ":" + location;
        }
        String path = location;
        if (!location.startsWith("/")) {
            String uri = request.getRequestURI();
            path = uri.substring(0, uri.lastIndexOf('/') + 1) + location;
        }
        return origin.scheme() + "://" + authority + path;
    }

    @Override
    public void setDateHeader(String name, long date) {
        setHeader(name, Cookies.HTTP_DATE.format(Instant.ofEpochMilli(date)));
    }

    @Override
    public void addDateHeader(String name, long date) {
        addHeader(name, Cookies.HTTP_DATE.format(Instant.ofEpochMilli(date)));
    }

    @Override
    public void setHeader(String name, String value) {
        if (name == null || isCommitted() || special(name, value)) {
            return;
        }
        engine.headers().set(name, value);
    }

    @Override
    public void addHeader(String name, String value) {
        if (name == null || value == null || isCommitted() || special(name, value)) {
            return;
        }
        engine.headers().add(name, value);
    }

    /** Routes the headers the response models itself; returns whether it did. */
    private boolean special(String name, String value) {
        if (name.equalsIgnoreCase("Content-Type")) {
            setContentType(value);
            return true;
        }
        if (name.equalsIgnoreCase("Content-Length")) {
            setContentLengthLong(value == null ? -1 : Long.parseLong(value.trim()));
            return true;
        }
        return false;
    }

    @Override
    public void setIntHeader(String name, int value) {
        setHeader(name, String.valueOf(value));
    }

    @Override
    public void addIntHeader(String name, int value) {
        addHeader(name, String.valueOf(value));
    }

    @Override
    public void setStatus(int sc) {
        if (!isCommitted()) {
            status = sc;
        }
    }

    @Override
    public int getStatus() {
        return status;
    }

    @Override
    public String getHeader(String name) {
        if (name.equalsIgnoreCase("Content-Type")) {
            return getContentType();
        }
        if (name.equalsIgnoreCase("Content-Length")) {
            return contentLength < 0 ? null : String.valueOf(contentLength);
        }
        return engine.headers().get(name);
    }

    @Override
    public Collection<String> getHeaders(String name) {
        String special = name.equalsIgnoreCase("Content-Type") || name.equalsIgnoreCase("Content-Length")
                ? getHeader(name) : null;
        if (special != null) {
            return List.of(special);
        }
        return engine.headers().all(name);
    }

    @Override
    public Collection<String> getHeaderNames() {
        List<String> names = new ArrayList<>(engine.headers().names());
        if (contentType != null) {
            names.add("Content-Type");
        }
        if (contentLength >= 0) {
            names.add("Content-Length");
        }
        return names;
    }

    /**
     * Sends trailer fields after the body (Servlet 6.1 §5.5): over HTTP/2 as a final HEADERS frame, over HTTP/1.1
     * in the last chunk of a chunked body (a body without a declared length is then chunked; with a
     * {@code Content-Length} there is no place for them and they are dropped, as on Tomcat).
     *
     * @throws IllegalStateException once committed, or for an HTTP/1.0 request, which cannot carry trailers
     */
    @Override
    public void setTrailerFields(Supplier<Map<String, String>> supplier) {
        if (isCommitted()) {
            throw new IllegalStateException("Trailer fields must be set before the response is committed");
        }
        if ("HTTP/1.0".equals(request.getProtocol())) {
            throw new IllegalStateException("An HTTP/1.0 response cannot carry trailer fields");
        }
        trailers = supplier;
        engine.trailers(supplier == null ? null : () -> {
            Headers fields = Sprout.headers();
            Map<String, String> values = supplier.get();
            if (values != null) {
                values.forEach(fields::add);
            }
            return fields;
        });
    }

    @Override
    public Supplier<Map<String, String>> getTrailerFields() {
        return trailers;
    }

    @Override
    public String getCharacterEncoding() {
        if (charset != null) {
            return charset;
        }
        String contextDefault = environment.responseCharacterEncoding();
        return contextDefault != null ? contextDefault : StandardCharsets.ISO_8859_1.name();
    }

    @Override
    public String getContentType() {
        if (contentType == null) {
            return null;
        }
        return charset == null ? contentType : contentType + ";charset=" + charset;
    }

    @Override
    public ServletOutputStream getOutputStream() {
        if (output == Output.WRITER) {
            throw new IllegalStateException("getWriter() has already been called for this response");
        }
        output = Output.STREAM;
        return body;
    }

    @Override
    public PrintWriter getWriter() {
        if (output == Output.STREAM) {
            throw new IllegalStateException("getOutputStream() has already been called for this response");
        }
        if (writer == null) {
            String encoding = getCharacterEncoding();
            if (charset == null) {
                charset = encoding;
            }
            writer = new PrintWriter(new ResponseWriter(body, toCharset(encoding)), false);
        }
        output = Output.WRITER;
        return writer;
    }

    private static Charset toCharset(String name) {
        try {
            return Charset.forName(name);
        } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
            throw new UncheckedIOException(new java.io.UnsupportedEncodingException(name));
        }
    }

    @Override
    public void setCharacterEncoding(String encoding) {
        if (isCommitted() || writer != null) {
            return;
        }
        charset = encoding;
        charsetExplicit = encoding != null;
    }

    @Override
    public void setContentLength(int length) {
        setContentLengthLong(length);
    }

    @Override
    public void setContentLengthLong(long length) {
        if (isCommitted()) {
            return;
        }
        contentLength = length;
        body.declaredLength(length);
    }

    @Override
    public void setContentType(String type) {
        if (isCommitted()) {
            return;
        }
        if (type == null) {
            contentType = null;
            if (writer == null) {
                charset = null;
                charsetExplicit = false;
            }
            return;
        }
        int semicolon = type.indexOf(';');
        if (semicolon < 0) {
            // No parameters (Spring's application/json): nothing to split or rebuild.
            contentType = type.trim();
            return;
        }
        // Parameters in place, without splitting: Spring sets "text/plain;charset=UTF-8" for every String body.
        String base = type.substring(0, semicolon).trim();
        StringBuilder kept = null;
        for (int from = semicolon + 1; from <= type.length(); ) {
            int end = type.indexOf(';', from);
            end = end < 0 ? type.length() : end;
            int start = from;
            while (start < end && type.charAt(start) <= ' ') {
                start++;
            }
            int stop = end;
            while (stop > start && type.charAt(stop - 1) <= ' ') {
                stop--;
            }
            if (type.regionMatches(true, start, CHARSET_PARAMETER, 0, CHARSET_PARAMETER.length())) {
                if (writer == null) {
                    charset = type.substring(start + CHARSET_PARAMETER.length(), stop).replace("\"", "");
                    charsetExplicit = true;
                }
            } else if (stop > start) {
                kept = (kept == null ? new StringBuilder(base) : kept).append(';').append(type, start, stop);
            }
            from = end + 1;
        }
        contentType = kept == null ? base : kept.toString();
    }

    @Override
    public void setBufferSize(int size) {
        body.bufferSize(size);
    }

    @Override
    public int getBufferSize() {
        return body.bufferSize();
    }

    @Override
    public void flushBuffer() throws IOException {
        if (writer != null) {
            writer.flush();
        }
        body.flush();
    }

    @Override
    public void resetBuffer() {
        body.resetBuffer();
    }

    @Override
    public boolean isCommitted() {
        return body.committed();
    }

    @Override
    public void reset() {
        checkNotCommitted("reset");
        engine.reset();
        body.resetBuffer();
        status = 200;
        contentType = null;
        charset = null;
        charsetExplicit = false;
        locale = null;
        contentLength = -1;
        body.declaredLength(-1);
        writer = null;
        output = Output.NONE;
    }

    @Override
    public void setLocale(Locale value) {
        if (isCommitted() || value == null) {
            return;
        }
        locale = value;
        if (!charsetExplicit && writer == null) {
            Charset mapped = environment.charsetFor(value);
            if (mapped != null) {
                charset = mapped.name();
            }
        }
    }

    @Override
    public Locale getLocale() {
        return locale == null ? Locale.getDefault() : locale;
    }

    private void checkNotCommitted(String method) {
        if (isCommitted()) {
            throw new IllegalStateException("Cannot call " + method + "() after the response has been committed");
        }
    }
}
