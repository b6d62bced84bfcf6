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
     * @param ports the listening ports, main first
     * @param contextPath {@code ""} for the root context
     */
    static String of(List<Integer> ports, String contextPath, ServerConfig config) {
        // TLS covers every port the engine listens on, so all of them share one scheme.
        String scheme = config.tls() != null ? " (https" + (config.http2() != null ? ", h2)" : ")")
                : " (http" + (config.http2() != null ? ", h2c)" : ")");
        String listening = ports.stream().map(port -> port + scheme).collect(Collectors.joining(", "));
        return "Sprout started on port" + (ports.size() == 1 ? " " : "s ") + listening + " with context path '"
                + (contextPath.isEmpty() ? "/" : contextPath) + "' \u2014 " + engine(config);
    }

    /** {@code nio, platform threads, 200 workers} or {@code hybrid, virtual threads}. */
    static String engine(ServerConfig config) {
        String mode = config.executionMode().name().toLowerCase(Locale.ROOT);
        return config.threadType() == ThreadType.VIRTUAL ? mode + ", virtual threads"
                : mode + ", platform threads, " + config.threadPoolSize() + " workers";
    }
}
