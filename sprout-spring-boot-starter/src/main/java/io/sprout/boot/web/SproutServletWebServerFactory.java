package io.sprout.boot.web;

import io.sprout.boot.servlet.AccessLog;
import io.sprout.boot.servlet.ContainerConfig;
import io.sprout.boot.servlet.ErrorPage;
import io.sprout.boot.servlet.SproutServletContext;
import io.sprout.boot.websocket.SproutServerContainer;
import io.sprout.boot.websocket.WebSocketSupport;
import io.sprout.engine.ServerConfig;
import jakarta.servlet.http.Cookie;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.web.server.MimeMappings;
import org.springframework.boot.web.server.Shutdown;
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
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Creates {@link SproutWebServer}s hosting a servlet context: Spring Boot 4's servlet web server factory for
 * Sprout, shaped like Boot's own Tomcat and Jetty factories. {@code server.*} properties arrive through Boot's
 * {@code ServletWebServerFactoryCustomizer}; engine options through {@link #setServerConfig} and
 * {@link SproutServerConfigCustomizer}s.
 *
 * <p>Configured and used on the thread that refreshes the application context; {@link #getWebServer} runs the
 * {@code ServletContextInitializer}s (registering Spring's servlets and filters) and may block on them.
 *
 * <p>The engine configuration (ports, TLS, HTTP/2, engine options) is {@link AbstractSproutWebServerFactory}'s.
 */
public class SproutServletWebServerFactory extends AbstractSproutWebServerFactory
        implements ConfigurableServletWebServerFactory, ResourceLoaderAware {

    /** Present when the application can have WebSocket endpoints (the starter brings the API jar). */
    private static final String JAKARTA_WEBSOCKET = "jakarta.websocket.server.ServerContainer";

    private final ServletWebServerSettings settings = new ServletWebServerSettings();
    private boolean allowTrace;
    private Duration asyncTimeout = Duration.ofSeconds(30);
    private String accessLogPattern;
    private ResourceLoader resourceLoader;
    private Duration webSocketAsyncSendTimeout = Duration.ZERO;

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

    /** The Jakarta container's default timeout of asynchronous sends; zero for none. */
    public void setWebSocketAsyncSendTimeout(Duration timeout) {
        this.webSocketAsyncSendTimeout = timeout;
    }

    public Duration getAsyncTimeout() {
        return asyncTimeout;
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
                SproutServerContainer container = WebSocketSupport.install(context, getWebSocketConfig(),
                        getWebSocketStats());
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
            ServletApplication.deleteRecursively(tempDirectory);
            throw new WebServerException("Unable to start embedded Sprout: the servlet context failed to "
                    + "initialise", e);
        }
        return new SproutWebServer(engineConfig,
                new ServletApplication(context, tempDirectory, upgradedClosed, deploymentEnds),
                getShutdown() == Shutdown.GRACEFUL, getWarmUp(), getWebSocketStats());
    }

    ContainerConfig containerConfig(Path tempDirectory) {
        return new ContainerConfig(settings.getContextPath().toString(),
                settings.getDisplayName() == null ? "application" : settings.getDisplayName(), classLoader(),
                resources(), mimeTypes(settings.getMimeMappings()), settings.getLocaleCharsetMappings(),
                errorPages(), sessions(), sameSite(), compressionPolicy(), isUseForwardHeaders(), allowTrace,
                asyncTimeout, tempDirectory, accessLogPattern == null ? null : new AccessLog(accessLogPattern));
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

    private Path createTempDirectory() {
        try {
            return Files.createTempDirectory("sprout." + getPort() + ".").toAbsolutePath();
        } catch (IOException e) {
            throw new WebServerException("Unable to create the temporary directory in java.io.tmpdir="
                    + System.getProperty("java.io.tmpdir"), e);
        }
    }
}
