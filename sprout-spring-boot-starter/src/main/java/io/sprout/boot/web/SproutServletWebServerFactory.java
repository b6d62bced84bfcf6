package io.sprout.boot.web;

import io.sprout.boot.servlet.AccessLog;
import io.sprout.boot.servlet.ContainerConfig;
import io.sprout.boot.servlet.ErrorPage;
import io.sprout.boot.servlet.ServletRequestHandler;
import io.sprout.boot.servlet.SproutServletContext;
import io.sprout.boot.servlet.http.CompressionPolicy;
import io.sprout.boot.tls.SslBundleTls;
import io.sprout.boot.websocket.SproutServerContainer;
import io.sprout.boot.websocket.WebSocketSupport;
import io.sprout.engine.Http2Config;
import io.sprout.engine.ServerConfig;
import io.sprout.engine.TlsConfig;
import io.sprout.engine.WebSocketConfig;
import jakarta.servlet.http.Cookie;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.web.server.AbstractConfigurableWebServerFactory;
import org.springframework.boot.web.server.Compression;
import org.springframework.boot.web.server.MimeMappings;
import org.springframework.boot.web.server.Shutdown;
import org.springframework.boot.web.server.Ssl;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.WebServerException;
import org.springframework.boot.web.server.servlet.ConfigurableServletWebServerFactory;
import org.springframework.boot.web.server.servlet.CookieSameSiteSupplier;
import org.springframework.boot.web.server.servlet.DocumentRoot;
import org.springframework.boot.web.server.servlet.ServletContextInitializers;
import org.springframework.boot.web.server.servlet.ServletWebServerSettings;
import org.springframework.boot.web.server.servlet.Session;
import org.springframework.boot.web.servlet.ServletContextInitializer;
import org.springframework.context.ResourceLoaderAware;
import org.springframework.core.io.ResourceLoader;
import org.springframework.util.ClassUtils;

import java.io.File;
import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Creates {@link SproutWebServer}s hosting a servlet context: Spring Boot 4's servlet web server factory for
 * Sprout, shaped like Boot's own Tomcat and Jetty factories. {@code server.*} properties arrive through Boot's
 * {@code ServletWebServerFactoryCustomizer}; engine options through {@link #setServerConfig} and
 * {@link SproutServerConfigCustomizer}s.
 *
 * <p>Configured and used on the thread that refreshes the application context; {@link #getWebServer} runs the
 * {@code ServletContextInitializer}s (registering Spring's servlets and filters) and may block on them.
 *
 * <p>TLS comes from Boot's {@code server.ssl.*} and SSL bundles (see {@link SslBundleTls}): every port, the main
 * one and the additional ones, then speaks {@code https}. Boot's {@code server.http2.enabled} adds HTTP/2 next to
 * HTTP/1.1 on every port (see {@link #setHttp2Config}): {@code h2} by ALPN over TLS, {@code h2c} by prior knowledge
 * or {@code Upgrade} in plaintext.
 */
public class SproutServletWebServerFactory extends AbstractConfigurableWebServerFactory
        implements ConfigurableServletWebServerFactory, ResourceLoaderAware {

    /** Present when the application can have WebSocket endpoints (the starter brings the API jar). */
    private static final String JAKARTA_WEBSOCKET = "jakarta.websocket.server.ServerContainer";

    private final ServletWebServerSettings settings = new ServletWebServerSettings();
    private final List<SproutServerConfigCustomizer> configCustomizers = new ArrayList<>();
    private final List<Integer> additionalPorts = new ArrayList<>();
    private ServerConfig serverConfig = ServerConfig.builder().build();
    private int maxHttpRequestHeaderSize = -1;
    private boolean useForwardHeaders;
    private boolean allowTrace;
    private Duration asyncTimeout = Duration.ofSeconds(30);
    private String accessLogPattern;
    private Duration tlsHandshakeTimeout = TlsConfig.DEFAULT_HANDSHAKE_TIMEOUT;
    private ResourceLoader resourceLoader;
    private WebSocketConfig webSocketConfig = WebSocketConfig.DEFAULT;
    private Duration webSocketAsyncSendTimeout = Duration.ZERO;
    private Http2Config http2Config;

    public SproutServletWebServerFactory() {
    }

    public SproutServletWebServerFactory(int port) {
        super(port);
    }

    @SuppressWarnings("this-escape")
    public SproutServletWebServerFactory(String contextPath, int port) {
        super(port);
        setContextPath(contextPath);
    }

    @Override
    public ServletWebServerSettings getSettings() {
        return settings;
    }

    @Override
    public void setResourceLoader(ResourceLoader resourceLoader) {
        this.resourceLoader = resourceLoader;
    }

    /**
     * The engine options; port, additional ports, address, server header and header size limit are overridden by
     * this factory.
     */
    public void setServerConfig(ServerConfig serverConfig) {
        this.serverConfig = serverConfig;
    }

    public ServerConfig getServerConfig() {
        return serverConfig;
    }

    public void addServerConfigCustomizers(SproutServerConfigCustomizer... customizers) {
        configCustomizers.addAll(Arrays.asList(customizers));
    }

    public List<SproutServerConfigCustomizer> getServerConfigCustomizers() {
        return configCustomizers;
    }

    /**
     * Listens on these ports too, with the same address, servlet context and engine (what Tomcat users do with
     * {@code addAdditionalTomcatConnectors}); 0 picks a free port. A port that cannot be bound fails
     * {@link WebServer#start()} with Boot's {@code PortInUseException} naming it, and the started line lists every
     * port. Boot's {@code local.server.port} and {@link WebServer#getPort()} stay the main port;
     * {@link SproutWebServer#getPorts()} has them all.
     */
    public void addAdditionalPorts(int... ports) {
        for (int port : ports) {
            additionalPorts.add(port);
        }
    }

    /** Replaces the additional ports (see {@link #addAdditionalPorts}). */
    public void setAdditionalPorts(Collection<Integer> ports) {
        additionalPorts.clear();
        additionalPorts.addAll(ports);
    }

    public List<Integer> getAdditionalPorts() {
        return List.copyOf(additionalPorts);
    }

    /** {@code server.max-http-request-header-size} in bytes; -1 keeps the engine's limit. */
    public void setMaxHttpRequestHeaderSize(int bytes) {
        maxHttpRequestHeaderSize = bytes;
    }

    /** Honour {@code Forwarded}/{@code X-Forwarded-*} ({@code server.forward-headers-strategy=native}). */
    public void setUseForwardHeaders(boolean useForwardHeaders) {
        this.useForwardHeaders = useForwardHeaders;
    }

    public boolean isUseForwardHeaders() {
        return useForwardHeaders;
    }

    /**
     * Lets {@code TRACE} requests reach the application ({@code sprout.server.allow-trace}); off by default, when
     * they get 405 with an {@code Allow} header before any filter or servlet sees them, as on Tomcat and Jetty.
     */
    public void setAllowTrace(boolean allowTrace) {
        this.allowTrace = allowTrace;
    }

    public boolean isAllowTrace() {
        return allowTrace;
    }

    /** The default {@code AsyncContext} timeout. */
    public void setAsyncTimeout(Duration asyncTimeout) {
        this.asyncTimeout = asyncTimeout;
    }

    /** Enables the SLF4J access log with a pattern ({@code common}, {@code combined} or codes), or disables it. */
    public void setAccessLogPattern(String pattern) {
        this.accessLogPattern = pattern;
    }

    /** The access log pattern, or {@code null} when the access log is off. */
    public String getAccessLogPattern() {
        return accessLogPattern;
    }

    /** The limits of WebSocket connections ({@code sprout.server.websocket.*}). */
    public void setWebSocketConfig(WebSocketConfig webSocketConfig) {
        this.webSocketConfig = webSocketConfig;
    }

    public WebSocketConfig getWebSocketConfig() {
        return webSocketConfig;
    }

    /**
     * The HTTP/2 settings and rate controls ({@code sprout.server.http2.*}) the server uses when Boot's
     * {@code server.http2.enabled} is {@code true}; {@code null} (the default) for {@link Http2Config#DEFAULT} with
     * the header list limited as the HTTP/1.1 header section is ({@code server.max-http-request-header-size}).
     * With HTTP/2 off the engine configuration's own {@code http2} stands: {@code null}, HTTP/1.1 only, unless a
     * {@link SproutServerConfigCustomizer} or {@link #setServerConfig} set one.
     */
    public void setHttp2Config(Http2Config http2Config) {
        this.http2Config = http2Config;
    }

    public Http2Config getHttp2Config() {
        return http2Config;
    }

    /** The Jakarta container's default timeout of asynchronous sends; zero for none. */
    public void setWebSocketAsyncSendTimeout(Duration timeout) {
        this.webSocketAsyncSendTimeout = timeout;
    }

    public Duration getAsyncTimeout() {
        return asyncTimeout;
    }

    /**
     * How long a TLS client may take from connecting to a completed handshake before it is closed
     * ({@code sprout.server.tls-handshake-timeout}, default 10 s); used when {@code server.ssl} is enabled.
     */
    public void setTlsHandshakeTimeout(Duration timeout) {
        this.tlsHandshakeTimeout = timeout;
    }

    public Duration getTlsHandshakeTimeout() {
        return tlsHandshakeTimeout;
    }

    @Override
    public WebServer getWebServer(ServletContextInitializer... initializers) {
        // Before the context: bad TLS key material then fails with nothing to clean up.
        ServerConfig engineConfig = getPort() < 0 ? null : engineConfig();
        Path tempDirectory = createTempDirectory();
        SproutServletContext context = new SproutServletContext(containerConfig(tempDirectory));
        Consumer<Runnable> upgradedClosed = Runnable::run;
        Runnable deploymentEnds = () -> { };
        try {
            if (ClassUtils.isPresent(JAKARTA_WEBSOCKET, context.getClassLoader())) {
                SproutServerContainer container = WebSocketSupport.install(context, webSocketConfig);
                container.setAsyncSendTimeout(webSocketAsyncSendTimeout.toMillis());
                upgradedClosed = container.openSessions()::whenNoneOpen;
                deploymentEnds = container::endDeployment;
            }
            for (String listener : settings.getWebListenerClassNames()) {
                context.addListener(listener);
            }
            for (ServletContextInitializer initializer : ServletContextInitializers.from(settings, initializers)) {
                initializer.onStartup(context);
            }
            context.start();
        } catch (Exception e) {
            context.destroy();
            SproutWebServer.deleteRecursively(tempDirectory);
            throw new WebServerException("Unable to start embedded Sprout: the servlet context failed to "
                    + "initialise", e);
        }
        SproutWebServer server = new SproutWebServer(engineConfig, new ServletRequestHandler(context), context,
                getShutdown() == Shutdown.GRACEFUL, tempDirectory);
        server.upgradedClosedBy(upgradedClosed);
        server.deploymentEndsWith(deploymentEnds);
        return server;
    }

    /**
     * The engine configuration for a new server: TLS is built here from {@code server.ssl.*} (reading the key
     * stores, so bad key material fails {@link #getWebServer}) and HTTP/2 from {@code server.http2.enabled}, before
     * the {@link SproutServerConfigCustomizer}s, which may still replace them.
     */
    ServerConfig engineConfig() {
        ServerConfig.Builder builder = serverConfig.toBuilder()
                .port(getPort())
                .additionalPorts(additionalPorts)
                .address(getAddress())
                .serverHeader(getServerHeader());
        if (Ssl.isEnabled(getSsl())) {
            builder.tls(SslBundleTls.tlsConfig(getSsl(), getSslBundles(), tlsHandshakeTimeout));
        }
        int headerSectionSize = maxHttpRequestHeaderSize > 0 ? maxHttpRequestHeaderSize
                : serverConfig.limits().maxHeaderSectionSize();
        builder.limits(serverConfig.limits().withMaxHeaderSectionSize(headerSectionSize));
        if (getHttp2() != null && getHttp2().isEnabled()) {
            builder.http2(http2Config != null ? http2Config
                    : Http2Config.DEFAULT.withMaxHeaderListSize(headerSectionSize));
        }
        configCustomizers.forEach(customizer -> customizer.customize(builder));
        return builder.build();
    }

    ContainerConfig containerConfig(Path tempDirectory) {
        return new ContainerConfig(settings.getContextPath().toString(),
                settings.getDisplayName() == null ? "application" : settings.getDisplayName(), classLoader(),
                resources(), mimeTypes(settings.getMimeMappings()), settings.getLocaleCharsetMappings(),
                errorPages(), sessions(), sameSite(), compressionPolicy(), useForwardHeaders, allowTrace, asyncTimeout,
                tempDirectory, accessLogPattern == null ? null : new AccessLog(accessLogPattern));
    }

    /**
     * The session timeout, and with {@code server.servlet.session.persistent} the file in Boot's session store
     * directory ({@code store-dir}, else a {@code servlet-sessions} folder in Boot's application temp directory)
     * that sessions wait in between two contexts, named as Tomcat names it.
     */
    private ContainerConfig.Sessions sessions() {
        Session session = settings.getSession();
        Duration timeout = session.getTimeout() == null ? Duration.ZERO : session.getTimeout();
        if (!session.isPersistent()) {
            return ContainerConfig.Sessions.inMemory(timeout);
        }
        File directory = session.getSessionStoreDirectory().getValidDirectory(true);
        return new ContainerConfig.Sessions(timeout, directory.toPath().resolve("SESSIONS.ser"));
    }

    /**
     * The document root Boot resolves as it does for Tomcat and Jetty ({@code server.servlet.document-root}, else
     * {@code src/main/webapp}, {@code public} or {@code static} in the working directory, or the exploded war), and
     * the class path entries with {@code META-INF/resources}.
     */
    private ContainerConfig.Resources resources() {
        DocumentRoot documentRoot = new DocumentRoot(LogFactory.getLog(SproutServletWebServerFactory.class));
        documentRoot.setDirectory(settings.getDocumentRoot());
        File directory = documentRoot.getValidDirectory();
        return new ContainerConfig.Resources(directory == null ? null : directory.toPath(), staticResourceUrls(),
                settings.isRegisterDefaultServlet());
    }

    /** Boot's static resource jars and directories; tests substitute their own (the class path is fixed). */
    List<URL> staticResourceUrls() {
        return settings.getStaticResourceUrls();
    }

    private ClassLoader classLoader() {
        return resourceLoader != null && resourceLoader.getClassLoader() != null ? resourceLoader.getClassLoader()
                : ClassUtils.getDefaultClassLoader();
    }

    private static Map<String, String> mimeTypes(MimeMappings mappings) {
        Map<String, String> types = new HashMap<>();
        for (MimeMappings.Mapping mapping : mappings) {
            types.put(mapping.getExtension().toLowerCase(Locale.ROOT), mapping.getMimeType());
        }
        return types;
    }

    private List<ErrorPage> errorPages() {
        List<ErrorPage> pages = new ArrayList<>();
        for (org.springframework.boot.web.error.ErrorPage page : getErrorPages()) {
            pages.add(new ErrorPage(page.getStatusCode(), page.getException(), page.getPath()));
        }
        return pages;
    }

    /** Boot's SameSite suppliers, plus {@code server.servlet.session.cookie.same-site} for the session cookie. */
    private Function<Cookie, String> sameSite() {
        List<CookieSameSiteSupplier> suppliers = new ArrayList<>(settings.getCookieSameSiteSuppliers());
        var sessionCookie = settings.getSession().getCookie();
        String sessionCookieName = sessionCookie.getName() != null ? sessionCookie.getName() : "JSESSIONID";
        var sessionSameSite = sessionCookie.getSameSite();
        return cookie -> {
            if (sessionSameSite != null && cookie.getName().equals(sessionCookieName)) {
                return sessionSameSite.attributeValue();
            }
            for (CookieSameSiteSupplier supplier : suppliers) {
                var value = supplier.getSameSite(cookie);
                if (value != null) {
                    return value.attributeValue();
                }
            }
            return null;
        };
    }

    private CompressionPolicy compressionPolicy() {
        Compression compression = getCompression();
        if (compression == null || !compression.getEnabled()) {
            return null;
        }
        List<Pattern> excluded = new ArrayList<>();
        if (compression.getExcludedUserAgents() != null) {
            for (String agent : compression.getExcludedUserAgents()) {
                excluded.add(Pattern.compile(agent));
            }
        }
        return new CompressionPolicy(compression.getMinResponseSize().toBytes(),
                List.of(compression.getAllMimeTypes()), excluded);
    }

    private Path createTempDirectory() {
        try {
            return Files.createTempDirectory("sprout." + getPort() + ".").toAbsolutePath();
        } catch (IOException e) {
            throw new WebServerException("Unable to create the temporary directory in java.io.tmpdir="
                    + System.getProperty("java.io.tmpdir"), e);
        }
    }
}
