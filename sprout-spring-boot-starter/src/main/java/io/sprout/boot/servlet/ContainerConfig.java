package io.sprout.boot.servlet;

import io.sprout.boot.compression.CompressionPolicy;
import jakarta.servlet.http.Cookie;

import java.net.URL;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Everything the servlet container layer is configured with; the web server factory builds it from Boot's
 * settings. Independent of Spring so the container can be tested on its own.
 *
 * @param contextPath {@code ""} or {@code /name}
 * @param displayName the servlet context name
 * @param classLoader the application class loader, set as the thread context class loader for every request
 * @param resources where the context's resources come from
 * @param mimeTypes file extension (lower case, no dot) to MIME type
 * @param localeCharsets response charset per locale
 * @param errorPages where errors are rendered
 * @param sessions session expiry and persistence
 * @param sameSite SameSite value for a cookie that has none, or {@code null} (function may return null)
 * @param compression gzip policy, or {@code null} for none
 * @param useForwardHeaders honour {@code Forwarded}/{@code X-Forwarded-*} from trusted proxies
 * @param allowTrace let {@code TRACE} requests reach the application; when {@code false} (Tomcat's default too)
 *     they get 405 before any filter or servlet sees them (see {@link TraceRefusal})
 * @param asyncTimeout default {@code AsyncContext} timeout
 * @param tempDirectory the context's temporary directory (multipart spills)
 * @param accessLog the access log, or {@code null} when disabled
 */
public record ContainerConfig(String contextPath, String displayName, ClassLoader classLoader, Resources resources,
        Map<String, String> mimeTypes, Map<Locale, Charset> localeCharsets, List<ErrorPage> errorPages,
        Sessions sessions, Function<Cookie, String> sameSite, CompressionPolicy compression,
        boolean useForwardHeaders, boolean allowTrace, Duration asyncTimeout, Path tempDirectory,
        AccessLog accessLog) {

    public ContainerConfig {
        if (contextPath == null || (!contextPath.isEmpty()
                && (!contextPath.startsWith("/") || contextPath.endsWith("/")))) {
            throw new IllegalArgumentException("contextPath must be empty or start with '/' and not end with '/' "
                    + "but was '" + contextPath + "'");
        }
        mimeTypes = Map.copyOf(mimeTypes);
        localeCharsets = Map.copyOf(localeCharsets);
        errorPages = List.copyOf(errorPages);
        if (classLoader == null || resources == null || sessions == null || asyncTimeout == null
                || tempDirectory == null) {
            throw new IllegalArgumentException("classLoader, resources, sessions, asyncTimeout and tempDirectory "
                    + "are required");
        }
    }

    /**
     * Where the context's resources come from.
     *
     * @param documentRoot the document root directory, or {@code null} for none: the context then uses a
     *     temporary directory, as Tomcat and Jetty do
     * @param staticResourceUrls class path entries whose {@code META-INF/resources} are resources of the context
     * @param registerDefaultServlet whether to register the default servlet ({@code "default"}, mapped to {@code /}
     *     until another servlet takes that mapping), which serves the resources
     */
    public record Resources(Path documentRoot, List<URL> staticResourceUrls, boolean registerDefaultServlet) {

        /** No document root, no static resource jars, no default servlet. */
        public static final Resources NONE = new Resources(null, List.of(), false);

        public Resources {
            staticResourceUrls = List.copyOf(staticResourceUrls);
        }
    }

    /**
     * Session expiry and persistence.
     *
     * @param timeout inactivity limit; zero or negative: never
     * @param store the file sessions are saved to when the context is destroyed and restored from when it starts,
     *     or {@code null} to keep them in memory only
     */
    public record Sessions(Duration timeout, Path store) {

        public Sessions {
            if (timeout == null) {
                throw new IllegalArgumentException("timeout is required (zero means never)");
            }
        }

        public static Sessions inMemory(Duration timeout) {
            return new Sessions(timeout, null);
        }
    }

    /** A root-context configuration with defaults, for tests and as a base. */
    public static ContainerConfig defaults(Path tempDirectory) {
        return new ContainerConfig("", "application", ContainerConfig.class.getClassLoader(), Resources.NONE,
                Map.of(), Map.of(), List.of(), Sessions.inMemory(Duration.ofMinutes(30)), cookie -> null, null, false,
                false, Duration.ofSeconds(30), tempDirectory, null);
    }

    public ContainerConfig withContextPath(String value) {
        return new ContainerConfig(value, displayName, classLoader, resources, mimeTypes, localeCharsets,
                errorPages, sessions, sameSite, compression, useForwardHeaders, allowTrace, asyncTimeout,
                tempDirectory, accessLog);
    }

    public ContainerConfig withErrorPages(List<ErrorPage> value) {
        return new ContainerConfig(contextPath, displayName, classLoader, resources, mimeTypes, localeCharsets,
                value, sessions, sameSite, compression, useForwardHeaders, allowTrace, asyncTimeout,
                tempDirectory, accessLog);
    }

    public ContainerConfig withCompression(CompressionPolicy value) {
        return new ContainerConfig(contextPath, displayName, classLoader, resources, mimeTypes, localeCharsets,
                errorPages, sessions, sameSite, value, useForwardHeaders, allowTrace, asyncTimeout,
                tempDirectory, accessLog);
    }

    public ContainerConfig withAsyncTimeout(Duration value) {
        return new ContainerConfig(contextPath, displayName, classLoader, resources, mimeTypes, localeCharsets,
                errorPages, sessions, sameSite, compression, useForwardHeaders, allowTrace, value,
                tempDirectory, accessLog);
    }

    public ContainerConfig withResources(Resources value) {
        return new ContainerConfig(contextPath, displayName, classLoader, value, mimeTypes, localeCharsets,
                errorPages, sessions, sameSite, compression, useForwardHeaders, allowTrace, asyncTimeout,
                tempDirectory, accessLog);
    }

    public ContainerConfig withSessions(Sessions value) {
        return new ContainerConfig(contextPath, displayName, classLoader, resources, mimeTypes, localeCharsets,
                errorPages, value, sameSite, compression, useForwardHeaders, allowTrace, asyncTimeout,
                tempDirectory, accessLog);
    }

    public ContainerConfig withForwardHeaders(boolean value) {
        return new ContainerConfig(contextPath, displayName, classLoader, resources, mimeTypes, localeCharsets,
                errorPages, sessions, sameSite, compression, value, allowTrace, asyncTimeout,
                tempDirectory, accessLog);
    }

    public ContainerConfig withAllowTrace(boolean value) {
        return new ContainerConfig(contextPath, displayName, classLoader, resources, mimeTypes, localeCharsets,
                errorPages, sessions, sameSite, compression, useForwardHeaders, value, asyncTimeout,
                tempDirectory, accessLog);
    }
}
