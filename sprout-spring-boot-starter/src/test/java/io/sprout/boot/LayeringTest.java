package io.sprout.boot;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The starter's dependency rule, read from the sources' imports: the servlet container layer knows nothing of
 * Spring; its leaf packages (mapping, multipart, session, async, resource) know nothing of each other or of the
 * request and response ({@code Unsupported} is the one shared class); {@code web} does not know the
 * auto-configuration; {@code tls} (Boot's SSL as the engine's TLS) knows neither the web server nor the servlet layer;
 * {@code reactive} (WebFlux on the engine) and its {@code websocket} know the engine and Spring only, none of the
 * starter's other packages;
 * {@code compression} (one policy for servlet and reactive responses) knows only the engine; so does
 * {@code forwarded} (a proxy's headers, read once for the Servlet and the WebFlux request). {@code stats} (counters
 * both stacks feed, such as the WebSocket sessions) knows nothing. Every package may use {@code forwarded},
 * {@code stats} and {@code Unsupported}.
 */
class LayeringTest {

    private static final Path SOURCES = Path.of("src/main/java/io/sprout/boot");

    /** Package (relative to io.sprout.boot) to import prefixes it must not use. */
    private static final Map<String, List<String>> FORBIDDEN = Map.ofEntries(
            Map.entry("servlet", List.of("org.springframework", "io.sprout.boot.web", "io.sprout.boot.autoconfigure",
                    "io.sprout.boot.metrics")),
            Map.entry("servlet/http",
                    List.of("org.springframework", "io.sprout.boot.web", "io.sprout.boot.autoconfigure")),
            Map.entry("servlet/mapping", List.of("org.springframework", "io.sprout.boot.")),
            Map.entry("servlet/multipart", List.of("org.springframework", "io.sprout.boot.")),
            Map.entry("servlet/session", List.of("org.springframework", "io.sprout.boot.")),
            Map.entry("servlet/async", List.of("org.springframework", "io.sprout.boot.")),
            Map.entry("servlet/resource", List.of("org.springframework", "io.sprout.boot.")),
            Map.entry("web", List.of("io.sprout.boot.autoconfigure", "io.sprout.boot.metrics")),
            Map.entry("metrics", List.of("io.sprout.boot.autoconfigure")),
            Map.entry("tls", List.of("io.sprout.boot.")),
            Map.entry("reactive", List.of("io.sprout.boot.")),
            Map.entry("reactive/websocket", List.of("io.sprout.boot.")),
            Map.entry("stats", List.of("org.springframework", "io.sprout.")),
            Map.entry("compression", List.of("org.springframework", "io.sprout.boot.")),
            Map.entry("forwarded", List.of("org.springframework", "io.sprout.boot.")),
            Map.entry("diagnostics",
                    List.of("io.sprout.boot.autoconfigure", "io.sprout.boot.metrics", "io.sprout.boot.web")));

    /** Imports every package may use whatever its rule says: shared leaves that know only the engine. */
    private static final List<String> SHARED = List.of("io.sprout.boot.servlet.Unsupported",
            "io.sprout.boot.forwarded.", "io.sprout.boot.stats.");

    @Test
    void packagesOnlyDependDownwards() throws IOException {
        List<String> violations = new ArrayList<>();
        for (Map.Entry<String, List<String>> rule : FORBIDDEN.entrySet()) {
            try (Stream<Path> files = Files.list(SOURCES.resolve(rule.getKey()))) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                    for (String line : Files.readAllLines(file)) {
                        if (line.startsWith("import ") && SHARED.stream().noneMatch(line::contains)
                                && rule.getValue().stream().anyMatch(prefix -> line.contains(" " + prefix))) {
                            violations.add(file.getFileName() + ": " + line);
                        }
                    }
                }
            }
        }
        assertThat(violations).isEmpty();
    }
}
