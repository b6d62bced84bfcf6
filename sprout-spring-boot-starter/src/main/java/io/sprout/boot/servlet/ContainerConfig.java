package io.sprout.boot.servlet;

import io.sprout.boot.servlet.http.CompressionPolicy;
import jakarta.servlet.http.Cookie;

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
 * @param documentRoot directory for {@code getResource}/{@code getRealPath}, or {@code null}
 * @param mimeTypes file extension (lower case, no dot) to MIME type
 * @param localeCharsets response charset per locale
 * @param errorPages where errors are rendered
 * @param sessionTimeout session inactivity limit; zero or negative: never
 * @param sameSite SameSite value for a cookie that has none, or {@code null} (function may return null)
 * @param compression gzip policy, or {@code null} for none
 * @param useForwardHeaders honour {@code Forwarded}/{@code X-Forwarded-*} from trusted proxies
 * @param asyncTimeout default {@code AsyncContext} timeout
 * @param tempDirectory the context's temporary directory (multipart spills)
 * @param accessLog the access log, or {@code null} when disabled
 */
public record ContainerConfig(String contextPath, String displayName, ClassLoader classLoader, Path documentRoot,
        Map<String, String> mimeTypes, Map<Locale, Charset> localeCharsets, List<ErrorPage> errorPages,
        Duration sessionTimeout, Function<Cookie, String> sameSite, CompressionPolicy compression,
        boolean useForwardHeaders, Duration asyncTimeout, Path tempDirectory, AccessLog accessLog) {

    public ContainerConfig {
        if (contextPath == null || (!contextPath.isEmpty()
                && (!contextPath.startsWith("/") || contextPath.endsWith("/")))) {
            throw new IllegalArgumentException("contextPath must be empty or start with '/' and not end with '/' "
                    + "but was '" + contextPath + "'");
        }
        mimeTypes = Map.copyOf(mimeTypes);
        localeCharsets = Map.copyOf(localeCharsets);
        errorPages = List.copyOf(errorPages);
        if (classLoader == null || sessionTimeout == null || asyncTimeout == null || tempDirectory == null) {
            throw new IllegalArgumentException("classLoader, sessionTimeout, asyncTimeout and tempDirectory are "
                    + "required");
        }
    }

    /** A root-context configuration with defaults, for tests and as a base. */
    public static ContainerConfig defaults(Path tempDirectory) {
        return new ContainerConfig("", "application", ContainerConfig.class.getClassLoader(), null, Map.of(),
                Map.of(), List.of(), Duration.ofMinutes(30), cookie -> null, null, false, Duration.ofSeconds(30),
                tempDirectory, null);
    }

    public ContainerConfig withContextPath(String value) {
        return new ContainerConfig(value, displayName, classLoader, documentRoot, mimeTypes, localeCharsets,
                errorPages, sessionTimeout, sameSite, compression, useForwardHeaders, asyncTimeout, tempDirectory,
                accessLog);
    }

    public ContainerConfig withErrorPages(List<ErrorPage> value) {
        return new ContainerConfig(contextPath, displayName, classLoader, documentRoot, mimeTypes, localeCharsets,
                value, sessionTimeout, sameSite, compression, useForwardHeaders, asyncTimeout, tempDirectory,
                accessLog);
    }

    public ContainerConfig withCompression(CompressionPolicy value) {
        return new ContainerConfig(contextPath, displayName, classLoader, documentRoot, mimeTypes, localeCharsets,
                errorPages, sessionTimeout, sameSite, value, useForwardHeaders, asyncTimeout, tempDirectory,
                accessLog);
    }

    public ContainerConfig withAsyncTimeout(Duration value) {
        return new ContainerConfig(contextPath, displayName, classLoader, documentRoot, mimeTypes, localeCharsets,
                errorPages, sessionTimeout, sameSite, compression, useForwardHeaders, value, tempDirectory,
                accessLog);
    }

    public ContainerConfig withForwardHeaders(boolean value) {
        return new ContainerConfig(contextPath, displayName, classLoader, documentRoot, mimeTypes, localeCharsets,
                errorPages, sessionTimeout, sameSite, compression, value, asyncTimeout, tempDirectory, accessLog);
    }
}
