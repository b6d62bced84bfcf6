package io.sprout.boot.servlet.http;

import io.sprout.boot.servlet.Attributes;
import io.sprout.boot.servlet.Unsupported;
import io.sprout.boot.servlet.async.SproutAsyncContext;
import io.sprout.boot.servlet.mapping.ServletMatch;
import io.sprout.engine.AsyncExchange;
import io.sprout.engine.HttpRequest;
import io.sprout.engine.RequestBodyException;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletConnection;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletMapping;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import jakarta.servlet.http.HttpUpgradeHandler;
import jakarta.servlet.http.Part;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.UnsupportedEncodingException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@link HttpServletRequest} over an engine {@link HttpRequest}. The path methods report the current
 * {@link DispatchState}, which the container swaps for each FORWARD, INCLUDE, ERROR and ASYNC dispatch.
 * Parameters, cookies and locales are parsed on first use.
 *
 * <p>Used by the request's worker, or by one application thread at a time during async processing; attributes
 * are thread-safe because Spring's async machinery touches them from both.
 */
public final class SproutRequest implements HttpServletRequest {

    private final HttpRequest engine;
    private final ExchangeEnvironment environment;
    private final boolean useForwardHeaders;
    /** Where the request came from; most requests never ask (see {@link #origin()}). */
    private RequestOrigin origin;
    private final Attributes attributes;
    private final long requestId;
    private SproutResponse response;
    private DispatchState dispatch;
    private Map<String, List<String>> parameters;
    private final BodyInput input;
    /** Made when the application upgrades; most requests do not. */
    private ProtocolUpgrade upgrade;
    private List<Cookie> cookies;
    private List<Locale> locales;
    private final RequestSession session;
    private SproutAsyncContext async;
    /** Made when the application asks for parts; most requests have none. */
    private RequestParts parts;

    /** @param useForwardHeaders whether {@link RequestOrigin} reads a trusted proxy's {@code Forwarded} headers */
    public SproutRequest(HttpRequest engine, ExchangeEnvironment environment, boolean useForwardHeaders) {
        this.engine = engine;
        this.environment = environment;
        // Spring MVC puts 21 names on a plain request (GET of a @RestController method, counted by logging each
        // set): its filters' FILTERED markers, the DispatcherServlet's, the handler mapping's. They fit without
        // growing.
        this.attributes = new Attributes(21,
                (name, value, old) -> environment.requestAttributeChanged(this, name, value, old));
        // The container's own attributes: present before any listener could care, so they announce nothing.
        if (engine.tls() != null) {
            TlsAttributes.apply(engine.tls(), attributes::setQuietly);
        }
        this.useForwardHeaders = useForwardHeaders;
        this.requestId = environment.nextRequestId();
        this.session = new RequestSession(environment, this);
        this.input = new BodyInput(this, environment.requestCharacterEncoding());
    }

    void response(SproutResponse value) {
        response = value;
    }

    /**
     * Worked out on first use. An async request may ask from two threads at once: each then works it out, and as the
     * record is immutable and the same from each, either may win.
     */
    public RequestOrigin origin() {
        RequestOrigin known = origin;
        if (known == null) {
            known = RequestOrigin.of(engine, useForwardHeaders);
            origin = known;
        }
        return known;
    }

    /** The method on the request line, which an ERROR dispatch does not change (see {@link #getMethod()}). */
    public String requestLineMethod() {
        return engine.method();
    }

    /** Installs the state of a new dispatch and returns the one it replaces. Container only. */
    public DispatchState enter(DispatchState next) {
        DispatchState previous = dispatch;
        dispatch = next;
        return previous;
    }

    public DispatchState dispatchState() {
        return dispatch;
    }

    /** The current async cycle, or {@code null}. */
    public SproutAsyncContext asyncContext() {
        return async;
    }

    /** Deletes multipart temporary files; called when the exchange ends. */
    public void cleanUp() {
        if (parts != null) {
            parts.deleteAll();
        }
    }

    @Override
    public Object getAttribute(String name) {
        return attributes.get(name);
    }

    @Override
    public Enumeration<String> getAttributeNames() {
        return attributes.names();
    }

    @Override
    public void setAttribute(String name, Object value) {
        attributes.set(name, value);
    }

    @Override
    public void removeAttribute(String name) {
        attributes.remove(name);
    }

    @Override
    public String getCharacterEncoding() {
        return input.characterEncoding();
    }

    /** Ignored once parameters were parsed or the reader made: both decoded with the encoding they had then. */
    @Override
    public void setCharacterEncoding(String encoding) throws UnsupportedEncodingException {
        if (parameters == null) {
            input.characterEncoding(encoding);
        }
    }

    @Override
    public int getContentLength() {
        long length = engine.contentLength();
        return length > Integer.MAX_VALUE ? -1 : (int) length;
    }

    @Override
    public long getContentLengthLong() {
        return engine.contentLength();
    }

    @Override
    public String getContentType() {
        return engine.headers().get("Content-Type");
    }

    @Override
    public ServletInputStream getInputStream() {
        return input.stream();
    }

    /** The engine's refusal of the request body that a read threw, however the application handled it; or null. */
    public RequestBodyException bodyRejection() {
        return input.rejection();
    }

    /** Non-blocking reading failed: a {@link jakarta.servlet.ReadListener} hears {@code onError}. Container only. */
    public void bodyFailed(Throwable cause) {
        input.failed(cause);
    }

    /** Runs an application callback from a container task with the application's class loader. */
    void inContainer(Runnable callback) {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(environment.servletContext().getClassLoader());
        try {
            callback.run();
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /** The engine exchange when a read listener may be set: async has started or a handler upgraded; else null. */
    AsyncExchange readListenerExchange() {
        return isAsyncStarted() || upgrade != null && upgrade.toHandlerRequested() ? engineExchange() : null;
    }

    /**
     * The engine exchange, suspended on first use: the first {@code startAsync()} or {@code upgrade()} runs on the
     * engine's handler thread, which is where the engine allows suspending. Container only.
     */
    public AsyncExchange engineExchange() {
        AsyncExchange exchange = engine.asyncExchange();
        return exchange != null ? exchange : engine.startAsync();
    }

    @Override
    public BufferedReader getReader() {
        return input.reader();
    }

    @Override
    public String getParameter(String name) {
        List<String> values = parameters().get(name);
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    @Override
    public Enumeration<String> getParameterNames() {
        return Collections.enumeration(parameters().keySet());
    }

    @Override
    public String[] getParameterValues(String name) {
        List<String> values = parameters().get(name);
        return values == null ? null : values.toArray(String[]::new);
    }

    @Override
    public Map<String, String[]> getParameterMap() {
        Map<String, String[]> map = new LinkedHashMap<>();
        parameters().forEach((name, values) -> map.put(name, values.toArray(String[]::new)));
        return Collections.unmodifiableMap(map);
    }

    /** Dispatch-target parameters first, then the query string, then a form or multipart body. */
    private Map<String, List<String>> parameters() {
        if (parameters == null) {
            Map<String, List<String>> parsed = new LinkedHashMap<>();
            FormParameters.parse(engine.query(), StandardCharsets.UTF_8, parsed);
            readBodyParameters(parsed);
            parameters = parsed;
        }
        Map<String, List<String>> extra = dispatch == null ? Map.of() : dispatch.extraParameters();
        if (extra.isEmpty()) {
            return parameters;
        }
        Map<String, List<String>> merged = new LinkedHashMap<>();
        extra.forEach((name, values) -> merged.put(name, new ArrayList<>(values)));
        parameters.forEach((name, values) -> merged.computeIfAbsent(name, key -> new ArrayList<>()).addAll(values));
        return merged;
    }

    private void readBodyParameters(Map<String, List<String>> into) {
        String type = getContentType();
        if (type == null) {
            return;
        }
        String lower = type.toLowerCase(Locale.ROOT);
        try {
            if (lower.startsWith("application/x-www-form-urlencoded") && requestLineMethod().equals("POST")
                    && input.untouched()) {
                Charset charset = input.charset();
                FormParameters.parse(new String(getInputStream().readAllBytes(), charset), charset, into);
            } else if (lower.startsWith("multipart/form-data") && dispatch != null
                    && dispatch.multipartConfig() != null && (parts != null && parts.parsed() || input.untouched())) {
                getParts();
                parts.formFieldsInto(into);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Failed to read the request body parameters", e);
        } catch (ServletException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    @Override
    public String getProtocol() {
        return engine.protocol();
    }

    @Override
    public String getScheme() {
        return origin().scheme();
    }

    @Override
    public String getServerName() {
        return origin().serverName();
    }

    @Override
    public int getServerPort() {
        return origin().serverPort();
    }

    @Override
    public String getRemoteAddr() {
        // Spring asks on every request (for its RequestHandledEvent). Without forwarded headers it is the peer's
        // address as the origin has it, and the rest of the origin (host name, port) need not be worked out.
        return useForwardHeaders ? origin().remoteAddr() : engine.remoteAddress().getAddress().getHostAddress();
    }

    /** The address, never a DNS lookup (Tomcat's default {@code enableLookups=false}). */
    @Override
    public String getRemoteHost() {
        return getRemoteAddr();
    }

    @Override
    public Locale getLocale() {
        // Spring asks on every request, and API clients mostly send no Accept-Language: the default, without a list.
        return locales == null && engine.headers().get("Accept-Language") == null ? Locale.getDefault()
                : locales().get(0);
    }

    @Override
    public Enumeration<Locale> getLocales() {
        return Collections.enumeration(locales());
    }

    private List<Locale> locales() {
        if (locales == null) {
            // Without an Accept-Language there is nothing to parse.
            locales = engine.headers().get("Accept-Language") == null ? List.of(Locale.getDefault())
                    : AcceptLanguage.parse(engine.headers().all("Accept-Language"));
        }
        return locales;
    }

    @Override
    public boolean isSecure() {
        return origin().scheme().equals("https");
    }

    @Override
    public RequestDispatcher getRequestDispatcher(String path) {
        if (path == null) {
            return null;
        }
        if (path.startsWith("/")) {
            return environment.servletContext().getRequestDispatcher(path);
        }
        String current = dispatch == null ? "/" : dispatch.pathWithinContext();
        return environment.servletContext().getRequestDispatcher(
                current.substring(0, current.lastIndexOf('/') + 1) + path);
    }

    @Override
    public int getRemotePort() {
        return origin().remotePort();
    }

    @Override
    public String getLocalName() {
        return engine.localAddress().getHostString();
    }

    @Override
    public String getLocalAddr() {
        return engine.localAddress().getAddress().getHostAddress();
    }

    @Override
    public int getLocalPort() {
        return engine.localAddress().getPort();
    }

    @Override
    public ServletContext getServletContext() {
        return environment.servletContext();
    }

    @Override
    public AsyncContext startAsync() {
        return startAsync(this, response, true);
    }

    @Override
    public AsyncContext startAsync(ServletRequest request, ServletResponse servletResponse) {
        return startAsync(request, servletResponse, request == this && servletResponse == response);
    }

    private AsyncContext startAsync(ServletRequest request, ServletResponse servletResponse, boolean original) {
        if (dispatch == null || !dispatch.asyncSupported()) {
            throw new IllegalStateException("Async is not supported for this request: the servlet or a filter of "
                    + "the chain was not registered with asyncSupported=true");
        }
        if (async != null && async.started()) {
            throw new IllegalStateException("startAsync() has already been called in this dispatch");
        }
        AsyncExchange exchange = engineExchange();
        String query = dispatch.queryString();
        String path = dispatch.pathWithinContext() + (query == null ? "" : "?" + query);
        SproutAsyncContext next = new SproutAsyncContext(request, servletResponse, original, path,
                environment.servletContext(), environment.asyncTimeoutMillis(), exchange::executeConcurrently);
        if (async != null) {
            async.fireStartAsync(next);
        }
        async = next;
        return next;
    }

    @Override
    public boolean isAsyncStarted() {
        return async != null && async.started();
    }

    @Override
    public boolean isAsyncSupported() {
        return dispatch != null && dispatch.asyncSupported();
    }

    @Override
    public AsyncContext getAsyncContext() {
        if (async == null) {
            throw new IllegalStateException("startAsync() has not been called for this request");
        }
        return async;
    }

    @Override
    public DispatcherType getDispatcherType() {
        return dispatch == null ? DispatcherType.REQUEST : dispatch.type();
    }

    @Override
    public String getRequestId() {
        return Long.toString(requestId);
    }

    /** HTTP/1.1 has no protocol-level request id. */
    @Override
    public String getProtocolRequestId() {
        return "";
    }

    @Override
    public ServletConnection getServletConnection() {
        String id = engine.remoteAddress() + "->" + engine.localAddress();
        return new ServletConnection() {
            @Override
            public String getConnectionId() {
                return id;
            }

            @Override
            public String getProtocol() {
                return engine.protocol();
            }

            @Override
            public String getProtocolConnectionId() {
                return "";
            }

            @Override
            public boolean isSecure() {
                return SproutRequest.this.isSecure();
            }
        };
    }

    @Override
    public String getAuthType() {
        return null;
    }

    @Override
    public Cookie[] getCookies() {
        if (cookies == null) {
            // Spring's flash maps look for a session on every request, which reads the cookies: most have none.
            cookies = engine.headers().get("Cookie") == null ? List.of()
                    : Cookies.parse(engine.headers().all("Cookie"));
        }
        return cookies.isEmpty() ? null : cookies.stream().map(Cookie::clone).toArray(Cookie[]::new);
    }

    @Override
    public long getDateHeader(String name) {
        String value = getHeader(name);
        if (value == null) {
            return -1;
        }
        try {
            return ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toEpochMilli();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("Header " + name + " is not an HTTP date: " + value, e);
        }
    }

    @Override
    public String getHeader(String name) {
        return engine.headers().get(name);
    }

    @Override
    public Enumeration<String> getHeaders(String name) {
        // Spring asks for headers a request often lacks (Accept): no list and no enumeration for those.
        return engine.headers().get(name) == null ? Collections.emptyEnumeration()
                : Collections.enumeration(engine.headers().all(name));
    }

    @Override
    public Enumeration<String> getHeaderNames() {
        return Collections.enumeration(engine.headers().names());
    }

    @Override
    public int getIntHeader(String name) {
        String value = getHeader(name);
        return value == null ? -1 : Integer.parseInt(value.trim());
    }

    @Override
    public HttpServletMapping getHttpServletMapping() {
        ServletMatch match = dispatch == null ? null : dispatch.match();
        return match != null ? match : HttpServletRequest.super.getHttpServletMapping();
    }

    @Override
    public String getMethod() {
        // An ERROR dispatch is a GET whatever the request was (Servlet 6.1, which added the request's own method as
        // jakarta.servlet.error.method), as on Tomcat: an error page answers a refused TRACE or a failed DELETE
        // with its usual content, not with doTrace's echo or a 405 of its own.
        return dispatch != null && dispatch.type() == DispatcherType.ERROR ? "GET" : engine.method();
    }

    @Override
    public String getPathInfo() {
        return dispatch == null ? null : dispatch.pathInfo();
    }

    @Override
    public String getPathTranslated() {
        String info = getPathInfo();
        return info == null ? null : environment.servletContext().getRealPath(info);
    }

    @Override
    public String getContextPath() {
        return environment.contextPath();
    }

    @Override
    public String getQueryString() {
        return dispatch == null ? engine.query() : dispatch.queryString();
    }

    @Override
    public String getRemoteUser() {
        return null;
    }

    @Override
    public boolean isUserInRole(String role) {
        return false;
    }

    @Override
    public Principal getUserPrincipal() {
        return null;
    }

    @Override
    public String getRequestedSessionId() {
        return session.requestedId(getCookies());
    }

    @Override
    public String getRequestURI() {
        return dispatch == null ? engine.path() : dispatch.requestUri();
    }

    @Override
    public StringBuffer getRequestURL() {
        RequestOrigin origin = origin();
        StringBuffer url = new StringBuffer(64).append(origin.scheme()).append("://").append(origin.serverName());
        int port = origin.serverPort();
        if (!(origin.scheme().equals("http") && port == 80) && !(origin.scheme().equals("https") && port == 443)) {
            url.append(':').append(port);
        }
        return url.append(getRequestURI());
    }

    @Override
    public String getServletPath() {
        return dispatch == null ? "" : dispatch.servletPath();
    }

    @Override
    public HttpSession getSession(boolean create) {
        return session.get(create, getCookies(), response);
    }

    @Override
    public HttpSession getSession() {
        return getSession(true);
    }

    @Override
    public String changeSessionId() {
        return session.changeId(getCookies(), response);
    }

    @Override
    public boolean isRequestedSessionIdValid() {
        return session.requestedIdValid(getCookies());
    }

    @Override
    public boolean isRequestedSessionIdFromCookie() {
        return session.fromCookie(getCookies());
    }

    @Override
    public boolean isRequestedSessionIdFromURL() {
        return session.fromUrl(getCookies());
    }

    @Override
    public boolean authenticate(HttpServletResponse servletResponse) {
        throw Unsupported.containerSecurity("HttpServletRequest.authenticate");
    }

    @Override
    public void login(String username, String password) {
        throw Unsupported.containerSecurity("HttpServletRequest.login");
    }

    /** Nothing to log out of: container security is not implemented (see {@link Unsupported}). */
    @Override
    public void logout() {
    }

    @Override
    public Collection<Part> getParts() throws IOException, ServletException {
        var config = dispatch == null ? null : dispatch.multipartConfig();
        if (parts == null) {
            parts = new RequestParts();
        }
        return parts.get(config, getContentType(), input.forContainer(!parts.parsed() && config != null),
                engine.contentLength(), input.charset(), environment.tempDirectory());
    }

    @Override
    public Part getPart(String name) throws IOException, ServletException {
        for (Part part : getParts()) {
            if (name.equals(part.getName())) {
                return part;
            }
        }
        return null;
    }

    /**
     * Sets status 101 and returns a new handler; the container sends the response and hands the connection to the
     * handler once the current dispatch returns ({@link #upgradeConnection()}).
     */
    @Override
    public <T extends HttpUpgradeHandler> T upgrade(Class<T> handlerClass) throws ServletException {
        return protocolUpgrade().toHandler(handlerClass, response);
    }

    /** The engine's request, for a protocol that checks its own handshake before {@link #takeOver}. */
    public HttpRequest engineRequest() {
        return engine;
    }

    /**
     * Hands the connection to a protocol the container implements itself (WebSocket) once the current dispatch
     * returns: instead of an {@link HttpUpgradeHandler} over servlet streams, the takeover gets the engine's request
     * and response and completes the handshake there, so headers the application adds until the dispatch returns
     * still go out with the {@code 101}. Container only.
     */
    public void takeOver(ConnectionTakeover protocol) {
        protocolUpgrade().toTakeover(protocol, response);
    }

    /** Whether {@code upgrade()} was called: the connection goes to the handler once the dispatch returns. */
    public boolean upgrading() {
        return upgrade != null && upgrade.requested();
    }

    /** Sends the 101 and gives the raw connection to the upgrade handler. Container only, after the dispatch. */
    public void upgradeConnection() throws IOException {
        upgrade.carryOut(response);
    }

    private ProtocolUpgrade protocolUpgrade() {
        if (upgrade == null) {
            upgrade = new ProtocolUpgrade(this);
        }
        return upgrade;
    }

    @Override
    public Map<String, String> getTrailerFields() {
        Map<String, String> trailers = new LinkedHashMap<>();
        var fields = engine.trailers();
        for (String name : fields.names()) {
            trailers.put(name.toLowerCase(Locale.ROOT), String.join(",", fields.all(name)));
        }
        return trailers;
    }

    @Override
    public boolean isTrailerFieldsReady() {
        // A body of known length has no trailers over HTTP/1.1; over HTTP/2 any body may end with them.
        long length = engine.contentLength();
        return length == 0 || length > 0 && !"HTTP/2.0".equals(getProtocol()) || input.finished();
    }
}
