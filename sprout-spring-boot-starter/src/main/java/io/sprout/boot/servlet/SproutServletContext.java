package io.sprout.boot.servlet;

import io.sprout.boot.compression.CompressionPolicy;
import io.sprout.boot.servlet.http.ExchangeEnvironment;
import io.sprout.boot.servlet.mapping.RequestPaths;
import io.sprout.boot.servlet.mapping.ServletMapper;
import io.sprout.boot.servlet.mapping.ServletMatch;
import io.sprout.boot.servlet.resource.ContextResources;
import io.sprout.boot.servlet.resource.StaticResourceServlet;
import io.sprout.boot.servlet.session.SessionStore;
import io.sprout.boot.servlet.session.SproutSessionCookieConfig;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.Servlet;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRegistration;
import jakarta.servlet.SessionCookieConfig;
import jakarta.servlet.SessionTrackingMode;
import jakarta.servlet.descriptor.JspConfigDescriptor;
import jakarta.servlet.http.Cookie;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.Enumeration;
import java.util.EventListener;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The one {@link ServletContext} a Sprout server hosts. Servlets, filters and listeners are registered while it
 * initialises ({@code ServletContextInitializer}s run against it); {@link #start()} then fires
 * {@code contextInitialized} and initialises filters, {@link #loadOnStartup()} initialises eager servlets, and
 * {@link #destroy()} tears everything down in reverse.
 *
 * <p>Registration methods run on the thread that builds the web server. After {@link #start()} they throw
 * {@link IllegalStateException}; everything else is safe to call from any worker.
 */
public final class SproutServletContext implements ServletContext, ExchangeEnvironment {

    private static final Logger LOG = LoggerFactory.getLogger(SproutServletContext.class);

    /** The name Tomcat and Jetty give the default servlet, which Spring MVC's default servlet handling looks for. */
    public static final String DEFAULT_SERVLET_NAME = "default";

    private enum State { INITIALIZING, STARTED, DESTROYED }

    private final ContainerConfig config;
    private final ServletMapper mapper = new ServletMapper();
    private final Map<String, ServletHolder> servlets = new LinkedHashMap<>();
    private final Map<String, FilterHolder> filters = new LinkedHashMap<>();
    private final FilterMappings filterMappings = new FilterMappings();
    private final Listeners listeners = new Listeners();
    private final Map<String, String> initParameters = new ConcurrentHashMap<>();
    private final Attributes attributes =
            new Attributes(16, (name, value, old) -> listeners.contextAttributeChanged(this, name, value, old));
    private final SproutSessionCookieConfig sessionCookieConfig = new SproutSessionCookieConfig();
    private final SessionStore sessions;
    private final ErrorPages errorPages;
    private final ContextResources resources;
    private final AtomicLong requestIds = new AtomicLong();
    private volatile Set<SessionTrackingMode> trackingModes = EnumSet.of(SessionTrackingMode.COOKIE);
    private volatile State state = State.INITIALIZING;
    private volatile String requestEncoding;
    private volatile String responseEncoding;

    public SproutServletContext(ContainerConfig config) {
        this.config = config;
        long timeoutSeconds = config.sessions().timeout().toSeconds();
        this.sessions = new SessionStore(this, listeners, Clock.systemUTC(),
                (int) Math.min(Integer.MAX_VALUE, timeoutSeconds));
        this.errorPages = new ErrorPages(config.errorPages());
        this.resources = ContextResources.open(documentRoot(config), config.resources().staticResourceUrls());
        attributes.setQuietly(ServletContext.TEMPDIR, config.tempDirectory().toFile());
        if (config.resources().registerDefaultServlet()) {
            registerDefaultServlet();
        }
    }

    /** The document root, or a temporary one: Tomcat and Jetty never leave a context without a root directory. */
    private static Path documentRoot(ContainerConfig config) {
        Path configured = config.resources().documentRoot();
        if (configured != null) {
            return configured;
        }
        try {
            return Files.createDirectories(config.tempDirectory().resolve("docbase"));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create the temporary document root in " + config.tempDirectory(),
                    e);
        }
    }

    /**
     * The servlet behind {@code server.servlet.register-default-servlet}: mapped to {@code /} only until another
     * servlet (Spring's {@code DispatcherServlet}) maps {@code /}, as Tomcat's overridable default servlet is, and
     * still reachable by name for Spring MVC's default servlet handling.
     */
    private void registerDefaultServlet() {
        ServletHolder holder = new ServletHolder(this, DEFAULT_SERVLET_NAME, new StaticResourceServlet(resources), null,
                null);
        servlets.put(DEFAULT_SERVLET_NAME, holder);
        holder.setLoadOnStartup(1);
        mapper.addOverridable(DEFAULT_SERVLET_NAME, "/");
    }

    ContainerConfig config() {
        return config;
    }

    ServletMapper mapper() {
        return mapper;
    }

    FilterMappings filterMappings() {
        return filterMappings;
    }

    Listeners listeners() {
        return listeners;
    }

    ErrorPages errorPages() {
        return errorPages;
    }

    ServletHolder servlet(String name) {
        return servlets.get(name);
    }

    void checkInitializing() {
        if (state != State.INITIALIZING) {
            throw new IllegalStateException("The servlet context has already been initialised: servlets, filters "
                    + "and listeners can only be registered while it starts");
        }
    }

    /**
     * Ends registration: locks the session cookie config, fires {@code contextInitialized}, restores persisted
     * sessions and initialises every filter (Tomcat's order). A failing filter fails the start.
     */
    public void start() throws ServletException {
        checkInitializing();
        sessionCookieConfig.lock();
        listeners.contextInitialized(this);
        Path store = config.sessions().store();
        if (store != null) {
            sessions.restore(store, getClassLoader());
        }
        state = State.STARTED;
        for (FilterHolder filter : filters.values()) {
            filter.init();
        }
    }

    /** Initialises servlets with {@code loadOnStartup >= 0}, lowest value first. */
    public void loadOnStartup() throws ServletException {
        List<ServletHolder> eager = new ArrayList<>();
        for (ServletHolder holder : servlets.values()) {
            if (holder.loadOnStartup() >= 0) {
                eager.add(holder);
            }
        }
        eager.sort(Comparator.comparingInt(ServletHolder::loadOnStartup));
        for (ServletHolder holder : eager) {
            holder.servlet();
        }
    }

    /**
     * Destroys servlets and filters, persists the sessions (or invalidates them when they are not persistent) and
     * fires {@code contextDestroyed}. Idempotent.
     */
    public void destroy() {
        if (state == State.DESTROYED) {
            return;
        }
        state = State.DESTROYED;
        List<ServletHolder> servletList = new ArrayList<>(servlets.values());
        Collections.reverse(servletList);
        servletList.forEach(ServletHolder::destroy);
        List<FilterHolder> filterList = new ArrayList<>(filters.values());
        Collections.reverse(filterList);
        filterList.forEach(FilterHolder::destroy);
        endSessions();
        listeners.contextDestroyed(this);
        resources.close();
    }

    private void endSessions() {
        Path store = config.sessions().store();
        if (store != null) {
            try {
                sessions.persist(store);
                return;
            } catch (IOException e) {
                LOG.warn("Could not persist the sessions to {}; they end with the context", store, e);
            }
        }
        sessions.invalidateAll();
    }

    <T> T instantiate(Class<T> type) throws ServletException {
        try {
            return type.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new ServletException("Cannot instantiate " + type.getName(), e);
        }
    }

    // --- ExchangeEnvironment ---

    @Override
    public ServletContext servletContext() {
        return this;
    }

    @Override
    public String contextPath() {
        return config.contextPath();
    }

    @Override
    public SessionStore sessions() {
        return sessions;
    }

    @Override
    public SessionCookieConfig sessionCookieConfig() {
        return sessionCookieConfig;
    }

    @Override
    public boolean cookieSessionTracking() {
        return trackingModes.contains(SessionTrackingMode.COOKIE);
    }

    @Override
    public boolean urlSessionTracking() {
        return trackingModes.contains(SessionTrackingMode.URL);
    }

    @Override
    public String requestCharacterEncoding() {
        return requestEncoding;
    }

    @Override
    public String responseCharacterEncoding() {
        return responseEncoding;
    }

    @Override
    public Charset charsetFor(Locale locale) {
        Charset charset = config.localeCharsets().get(locale);
        return charset != null ? charset : config.localeCharsets().get(Locale.of(locale.getLanguage()));
    }

    @Override
    public String sameSite(Cookie cookie) {
        return config.sameSite().apply(cookie);
    }

    @Override
    public CompressionPolicy compression() {
        return config.compression();
    }

    @Override
    public Path tempDirectory() {
        return config.tempDirectory();
    }

    @Override
    public long asyncTimeoutMillis() {
        return config.asyncTimeout().toMillis();
    }

    @Override
    public long nextRequestId() {
        return requestIds.incrementAndGet();
    }

    @Override
    public void requestAttributeChanged(jakarta.servlet.ServletRequest request, String name, Object value,
            Object old) {
        listeners.requestAttributeChanged(this, request, name, value, old);
    }

    // --- ServletContext ---

    @Override
    public String getContextPath() {
        return config.contextPath();
    }

    /** This context for its own path; {@code null} for any other (one context per server). */
    @Override
    public ServletContext getContext(String uripath) {
        return uripath != null && (uripath.equals(config.contextPath())
                || uripath.startsWith(config.contextPath() + "/")) ? this : null;
    }

    @Override
    public int getMajorVersion() {
        return 6;
    }

    @Override
    public int getMinorVersion() {
        return 1;
    }

    @Override
    public int getEffectiveMajorVersion() {
        return 6;
    }

    @Override
    public int getEffectiveMinorVersion() {
        return 1;
    }

    @Override
    public String getMimeType(String file) {
        int dot = file == null ? -1 : file.lastIndexOf('.');
        return dot < 0 ? null : config.mimeTypes().get(file.substring(dot + 1).toLowerCase(Locale.ROOT));
    }

    @Override
    public Set<String> getResourcePaths(String path) {
        return resources.paths(path);
    }

    @Override
    public URL getResource(String path) throws MalformedURLException {
        return resources.url(path);
    }

    @Override
    public InputStream getResourceAsStream(String path) {
        return resources.open(path);
    }

    @Override
    public RequestDispatcher getRequestDispatcher(String path) {
        if (path == null || !path.startsWith("/")) {
            return null;
        }
        int question = path.indexOf('?');
        String rawPath = question < 0 ? path : path.substring(0, question);
        String query = question < 0 ? null : path.substring(question + 1);
        String normalized = RequestPaths.normalize(rawPath);
        if (normalized == null) {
            return null;
        }
        return SproutRequestDispatcher.forPath(this, rawPath, normalized, query, mapper.match(normalized));
    }

    @Override
    public RequestDispatcher getNamedDispatcher(String name) {
        ServletHolder holder = servlets.get(name);
        return holder == null ? null : SproutRequestDispatcher.forName(this, holder);
    }

    ServletMatch match(String path) {
        return mapper.match(path);
    }

    @Override
    public void log(String message) {
        LOG.info(message);
    }

    @Override
    public void log(String message, Throwable throwable) {
        LOG.error(message, throwable);
    }

    @Override
    public String getRealPath(String path) {
        return resources.realPath(path);
    }

    @Override
    public String getServerInfo() {
        return "Sprout/0.1";
    }

    @Override
    public String getInitParameter(String name) {
        return initParameters.get(name);
    }

    @Override
    public Enumeration<String> getInitParameterNames() {
        return Collections.enumeration(initParameters.keySet());
    }

    @Override
    public boolean setInitParameter(String name, String value) {
        checkInitializing();
        return initParameters.putIfAbsent(name, value) == null;
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
    public String getServletContextName() {
        return config.displayName();
    }

    @Override
    public ServletRegistration.Dynamic addServlet(String name, String className) {
        return registerServlet(name, null, null, className);
    }

    @Override
    public ServletRegistration.Dynamic addServlet(String name, Servlet servlet) {
        return registerServlet(name, servlet, null, null);
    }

    @Override
    public ServletRegistration.Dynamic addServlet(String name, Class<? extends Servlet> type) {
        return registerServlet(name, null, type, null);
    }

    private ServletRegistration.Dynamic registerServlet(String name, Servlet servlet, Class<? extends Servlet> type,
            String className) {
        checkInitializing();
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("Servlet name must not be empty");
        }
        if (servlets.containsKey(name)) {
            return null;
        }
        ServletHolder holder = new ServletHolder(this, name, servlet, type, className);
        servlets.put(name, holder);
        return holder;
    }

    @Override
    public ServletRegistration.Dynamic addJspFile(String servletName, String jspFile) {
        throw Unsupported.jsp();
    }

    @Override
    public <T extends Servlet> T createServlet(Class<T> type) throws ServletException {
        return instantiate(type);
    }

    @Override
    public ServletRegistration getServletRegistration(String name) {
        return servlets.get(name);
    }

    @Override
    public Map<String, ? extends ServletRegistration> getServletRegistrations() {
        return Collections.unmodifiableMap(new LinkedHashMap<>(servlets));
    }

    @Override
    public FilterRegistration.Dynamic addFilter(String name, String className) {
        return registerFilter(name, null, null, className);
    }

    @Override
    public FilterRegistration.Dynamic addFilter(String name, Filter filter) {
        return registerFilter(name, filter, null, null);
    }

    @Override
    public FilterRegistration.Dynamic addFilter(String name, Class<? extends Filter> type) {
        return registerFilter(name, null, type, null);
    }

    private FilterRegistration.Dynamic registerFilter(String name, Filter filter, Class<? extends Filter> type,
            String className) {
        checkInitializing();
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("Filter name must not be empty");
        }
        if (filters.containsKey(name)) {
            return null;
        }
        FilterHolder holder = new FilterHolder(this, name, filter, type, className);
        filters.put(name, holder);
        return holder;
    }

    @Override
    public <T extends Filter> T createFilter(Class<T> type) throws ServletException {
        return instantiate(type);
    }

    @Override
    public FilterRegistration getFilterRegistration(String name) {
        return filters.get(name);
    }

    @Override
    public Map<String, ? extends FilterRegistration> getFilterRegistrations() {
        return Collections.unmodifiableMap(new LinkedHashMap<>(filters));
    }

    @Override
    public SessionCookieConfig getSessionCookieConfig() {
        return sessionCookieConfig;
    }

    /** {@code COOKIE} and {@code URL}, in any combination; {@code SSL} is not supported (see {@link Unsupported}). */
    @Override
    public void setSessionTrackingModes(Set<SessionTrackingMode> modes) {
        checkInitializing();
        if (modes.contains(SessionTrackingMode.SSL)) {
            throw Unsupported.sslSessionTracking();
        }
        trackingModes = modes.isEmpty() ? EnumSet.noneOf(SessionTrackingMode.class) : EnumSet.copyOf(modes);
    }

    /**
     * {@code COOKIE} only. Tomcat and Jetty also default to {@code URL}, which puts session ids into links, logs and
     * {@code Referer} headers; Sprout does that only when the application asks for it.
     */
    @Override
    public Set<SessionTrackingMode> getDefaultSessionTrackingModes() {
        return EnumSet.of(SessionTrackingMode.COOKIE);
    }

    @Override
    public Set<SessionTrackingMode> getEffectiveSessionTrackingModes() {
        return EnumSet.copyOf(trackingModes.isEmpty() ? EnumSet.noneOf(SessionTrackingMode.class) : trackingModes);
    }

    @Override
    public void addListener(String className) {
        try {
            Class<?> type = getClassLoader().loadClass(className);
            addListener(instantiate(type.asSubclass(EventListener.class)));
        } catch (ClassNotFoundException | ServletException | ClassCastException e) {
            throw new IllegalArgumentException("Cannot add listener " + className, e);
        }
    }

    @Override
    public <T extends EventListener> void addListener(T listener) {
        checkInitializing();
        if (!Listeners.supported(listener.getClass())) {
            throw new IllegalArgumentException(listener.getClass().getName() + " implements no listener interface "
                    + "a servlet context accepts");
        }
        listeners.add(listener);
    }

    @Override
    public void addListener(Class<? extends EventListener> listenerClass) {
        try {
            addListener(instantiate(listenerClass));
        } catch (ServletException e) {
            throw new IllegalArgumentException("Cannot add listener " + listenerClass.getName(), e);
        }
    }

    @Override
    public <T extends EventListener> T createListener(Class<T> type) throws ServletException {
        if (!Listeners.supported(type)) {
            throw new IllegalArgumentException(type.getName() + " is not a supported listener type");
        }
        return instantiate(type);
    }

    /** {@code null}: Sprout has no JSP support (see {@link Unsupported}). */
    @Override
    public JspConfigDescriptor getJspConfigDescriptor() {
        return null;
    }

    @Override
    public ClassLoader getClassLoader() {
        return config.classLoader();
    }

    @Override
    public void declareRoles(String... roleNames) {
        throw Unsupported.containerSecurity("ServletContext.declareRoles");
    }

    @Override
    public String getVirtualServerName() {
        return "sprout";
    }

    @Override
    public int getSessionTimeout() {
        return sessions.defaultMaxInactiveSeconds() / 60;
    }

    @Override
    public void setSessionTimeout(int minutes) {
        checkInitializing();
        sessions.defaultMaxInactiveSeconds(minutes <= 0 ? -1 : minutes * 60);
    }

    @Override
    public String getRequestCharacterEncoding() {
        return requestEncoding;
    }

    @Override
    public void setRequestCharacterEncoding(String encoding) {
        requestEncoding = encoding;
    }

    @Override
    public String getResponseCharacterEncoding() {
        return responseEncoding;
    }

    @Override
    public void setResponseCharacterEncoding(String encoding) {
        responseEncoding = encoding;
    }

    /** For diagnostics. */
    @Override
    public String toString() {
        return "SproutServletContext[" + (config.contextPath().isEmpty() ? "/" : config.contextPath()) + ", "
                + servlets.keySet() + ", filters " + filters.keySet() + "]";
    }
}
