package io.sprout.boot.web;

import io.sprout.engine.ServerConfig;
import io.sprout.engine.ThreadType;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The line a started server logs, shaped like Tomcat's and Jetty's ({@code Sprout started on port 8080 (http) with
 * context path '/'}, {@code (https)} with TLS, {@code (http, h2c)} or {@code (https, h2)} with HTTP/2, as Jetty says
 * it) and followed by what those servers have no equivalent for: the
 * execution mode, thread type and pool size in effect, so a log shows how the engine really runs whatever the
 * properties said.
 */
final class StartedLine {

    private StartedLine() {
    }

    /**
     * The line in the shape of Boot's other servers, without Sprout's engine part: {@code Sprout started on port
     * 8080 (http) with context path '/'}, or without the context path for a reactive application (as Reactor Netty
     * says it).
     *
     * @param ports the listening ports, main first
     * @param contextPath {@code ""} for the root context; {@code null} when the application has none (reactive)
     */
    static String bootShaped(List<Integer> ports, String contextPath, ServerConfig config) {
        // TLS covers every port the engine listens on, so all of them share one scheme.
        String scheme = config.tls() != null ? " (https" + (config.http2() != null ? ", h2)" : ")")
                : " (http" + (config.http2() != null ? ", h2c)" : ")");
        String listening = ports.stream().map(port -> port + scheme).collect(Collectors.joining(", "));
        String line = "Sprout started on port" + (ports.size() == 1 ? " " : "s ") + listening;
        return contextPath == null ? line
                : line + " with context path '" + (contextPath.isEmpty() ? "/" : contextPath) + "'";
    }

    /** The line logged: {@link #bootShaped} followed by the engine's execution mode, thread type and pool size. */
    static String of(String bootShaped, ServerConfig config) {
        return bootShaped + " \u2014 " + engine(config);
    }

    /** {@code nio, platform threads, 200 workers} or {@code hybrid, virtual threads}. */
    static String engine(ServerConfig config) {
        String mode = config.executionMode().name().toLowerCase(Locale.ROOT);
        return config.threadType() == ThreadType.VIRTUAL ? mode + ", virtual threads"
                : mode + ", platform threads, " + config.threadPoolSize() + " workers";
    }
}
