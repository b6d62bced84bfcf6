package io.sprout.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The engine's package dependencies point one way (STYLE.md, "Layout that shows the architecture"). Reads the main
 * sources as text: every {@code import} of an engine class and every fully qualified engine reference in code (not
 * in comments or string literals) is a dependency of the file's package on the referenced package.
 *
 * <ul>
 *   <li>The root package, the API: no other engine package. Every other package may use it.</li>
 *   <li>{@code http}, {@code buffer}, {@code exec}: no other engine package; {@code http} only implements the
 *       public {@code Headers} interface, which depends on nothing but {@code java.util}.</li>
 *   <li>{@code websocket}: the root package only (its codec classes use nothing at all).</li>
 *   <li>{@code http2}, the HTTP/2 frame codec: no other engine package.</li>
 *   <li>{@code hpack}: no other engine package: HTTP/2's header compression is a codec like {@code http}, and its
 *       public types are what the exchange's HTTP/2 session uses of it.</li>
 *   <li>{@code exchange}: the codecs ({@code http}, {@code http2}, {@code hpack}), {@code buffer} and the root
 *       package only.</li>
 *   <li>{@code transport}: {@code exchange}, {@code tls}, {@code exec} and what they may use: the connection
 *       lifecycle of both execution modes.</li>
 *   <li>{@code tls}: {@code buffer} and the root package only: a layer between socket and codec that knows
 *       neither the exchange nor a transport.</li>
 *   <li>{@code server}: every package but {@code hello}: it assembles the layers and is the front door.</li>
 *   <li>{@code transport}: used by nobody but {@code server} and {@code hello}.</li>
 *   <li>{@code hello}, an application of the engine, has no list; no list lets another package use it.</li>
 *   <li>The package graph has no cycle. The lists above admit none; the graph the sources actually make is checked
 *       as well, so that loosening a list cannot let one in unnoticed, and a failure names the cycle's path.</li>
 * </ul>
 *
 * Nothing is exempt from the cycle check. {@link #ALLOWED_API_TYPES} is no exemption from it: it narrows what
 * {@code http} may use of the API, which every package may use because the API uses none.
 */
class LayeringTest {

    private static final Path SOURCES = Path.of("src/main/java");
    private static final String ENGINE = "io.sprout.engine";
    private static final String ROOT = "(root)";

    /** For each package with a closed list, the engine packages it may use. */
    private static final Map<String, Set<String>> ALLOWED = Map.ofEntries(
            Map.entry(ROOT, Set.of()),
            Map.entry("http", Set.of()),
            Map.entry("http2", Set.of()),
            Map.entry("websocket", Set.of(ROOT)),
            Map.entry("hpack", Set.of()),
            Map.entry("buffer", Set.of()),
            Map.entry("exec", Set.of()),
            Map.entry("exchange", Set.of("http", "http2", "hpack", "buffer", ROOT)),
            Map.entry("transport", Set.of("exchange", "tls", "exec", "http", "buffer", ROOT)),
            Map.entry("tls", Set.of("buffer", ROOT)),
            Map.entry("server", Set.of(ROOT, "http", "buffer", "exec", "exchange", "transport", "tls", "websocket")));

    /**
     * Single API types a package with a closed list may use beyond it. The codec's {@code HeaderFields} is what the
     * API's {@code Headers} hands out: the interface must live in the exported package, and an adapter in
     * {@code exchange} would add an object and a delegation to every header call for nothing.
     */
    private static final Map<String, Set<String>> ALLOWED_API_TYPES = Map.of(
            "http", Set.of(ENGINE + ".Headers"));

    private static final String TRANSPORT = "transport";
    private static final Set<String> TRANSPORT_USERS = Set.of("server", "hello");
    private static final Set<String> KNOWN = Set.of(ROOT, "http", "http2", "hpack", "buffer", "exec", "exchange",
            TRANSPORT, "hello", "websocket", "tls", "server");

    private static final Pattern IMPORT = Pattern.compile(
            "^\\s*import\\s+(?:static\\s+)?(io\\.sprout\\.engine\\.[\\w.*]+)\\s*;", Pattern.MULTILINE);
    private static final Pattern QUALIFIED = Pattern.compile("\\bio\\s*\\.\\s*sprout\\s*\\.\\s*engine\\s*\\.\\s*(\\w+)");
    private static final Pattern PACKAGE_OR_IMPORT = Pattern.compile("^\\s*(?:package|import)\\b[^;]*;",
            Pattern.MULTILINE);

    /** One engine-internal reference: where it is and what it names. */
    record Dependency(String file, int line, String from, String to, String reference) {
    }

    @Test
    void packagesDependOnlyInTheAllowedDirection() {
        List<String> violations = new ArrayList<>();
        for (Path file : mainSources()) {
            for (Dependency dependency : dependencies(relative(file), read(file))) {
                String reason = violation(dependency);
                if (reason != null) {
                    violations.add(describe(dependency, reason));
                }
            }
        }

        assertThat(violations).as("package dependency violations").isEmpty();
    }

    @Test
    void everyEnginePackageHasAKnownPlaceInTheLayering() {
        Set<String> packages = new TreeSet<>();
        for (Path file : mainSources()) {
            packages.add(packageOf(relative(file)));
        }

        assertThat(packages).as("engine packages (add a new one to LayeringTest's rules)").isSubsetOf(KNOWN)
                .contains(ROOT, "http", "exchange", TRANSPORT, "server");
    }

    @Test
    void packageGraphHasNoCycle() {
        List<Dependency> found = new ArrayList<>();
        for (Path file : mainSources()) {
            found.addAll(dependencies(relative(file), read(file)));
        }
        Map<String, Set<String>> graph = packageGraph(found);

        // Guards against a vacuous pass: the graph must hold the edges the engine is built on.
        assertThat(graph).as("the package graph the sources make").containsKeys("server", TRANSPORT, "exchange");
        assertThat(graph.get("server")).contains(TRANSPORT, ROOT);
        List<String> cycle = cycle(graph);
        assertThat(cycle).withFailMessage("package dependency cycle: %s (graph: %s)", String.join(" -> ", cycle),
                graph).isEmpty();
    }

    @Test
    void findsTheCycleInAHandMadeGraphAndNamesItsPath() {
        Map<String, Set<String>> graph = Map.of(
                "api", Set.of(),
                "codec", Set.of("api"),
                "exchange", Set.of("codec", "api", "server"),
                "server", Set.of("transport", "api"),
                "transport", Set.of("exchange", "codec"));

        assertThat(cycle(graph)).containsExactly("exchange", "server", "transport", "exchange");
    }

    @Test
    void findsNoCycleInALayeredGraph() {
        Map<String, Set<String>> graph = Map.of(
                "api", Set.of(),
                "codec", Set.of("api"),
                "exchange", Set.of("codec", "api"),
                "transport", Set.of("exchange", "codec", "api"),
                "server", Set.of("transport", "exchange", "api"));

        assertThat(cycle(graph)).isEmpty();
    }

    @Test
    void buildsThePackageGraphWithoutSelfUses() {
        List<Dependency> found = List.of(
                new Dependency("a", 1, "server", TRANSPORT, ENGINE + ".transport.LoopTransport"),
                new Dependency("a", 2, "server", "server", ENGINE + ".server.EngineStats"),
                new Dependency("b", 1, TRANSPORT, ROOT, ENGINE + ".ServerConfig"));

        assertThat(packageGraph(found)).isEqualTo(Map.of("server", Set.of(TRANSPORT), TRANSPORT, Set.of(ROOT)));
    }

    @Test
    void reportsTheOffendingFileAndImport() {
        String source = """
                package io.sprout.engine.http;

                import java.util.List;
                import io.sprout.engine.exchange.Exchange;
                import static io.sprout.engine.buffer.BufferPool.create;

                /** Mentions io.sprout.engine.nio.NioTransport in a comment only. */
                final class Bad {
                    String text = "io.sprout.engine.hybrid.HybridTransport";
                    io.sprout.engine.nio.NioTransport transport; // io.sprout.engine.exec.Workers
                }
                """;

        List<String> violations = dependencies("io/sprout/engine/http/Bad.java", source).stream()
                .map(dependency -> describe(dependency, violation(dependency)))
                .toList();

        assertThat(violations).containsExactly(
                "io/sprout/engine/http/Bad.java:4 uses io.sprout.engine.exchange.Exchange: "
                        + "http may use no other engine package",
                "io/sprout/engine/http/Bad.java:5 uses io.sprout.engine.buffer.BufferPool.create: "
                        + "http may use no other engine package",
                "io/sprout/engine/http/Bad.java:10 uses io.sprout.engine.nio: "
                        + "http may use no other engine package");
    }

    @Test
    void keepsTheApiFreeOfTheEngineAndHelloOutOfTheServer() {
        assertThat(violation(ROOT, "http")).isEqualTo("(root) may use no other engine package");
        assertThat(violation(ROOT, "server")).isNotNull();
        assertThat(violation(ROOT, "websocket")).isNotNull();
        assertThat(violation("server", "hello")).isNotNull();
        assertThat(violation("server", "websocket")).isNull();
        assertThat(violation("server", "http")).isNull();
        assertThat(violation("hello", "server")).isNull();
    }

    @Test
    void letsOnlyTheServerUseTheTransport() {
        assertThat(violation("exchange", TRANSPORT)).isNotNull();
        assertThat(violation("websocket", TRANSPORT)).isEqualTo("websocket may use only (root)");
        assertThat(violation("exchange", "exec")).isNotNull();
        assertThat(violation("hello", TRANSPORT)).isNull();
        assertThat(violation("server", TRANSPORT)).isNull();
        assertThat(violation(TRANSPORT, "exchange")).isNull();
        assertThat(violation(TRANSPORT, "tls")).isNull();
        assertThat(violation(TRANSPORT, "exec")).isNull();
        assertThat(violation("tls", "exchange")).isEqualTo("tls may use only (root), buffer");
        assertThat(violation("exchange", "tls")).isNotNull();
    }

    @Test
    void letsTheCodecImplementTheApiHeadersAndNothingElseOfTheApi() {
        String source = """
                package io.sprout.engine.http;

                import io.sprout.engine.Headers;
                import io.sprout.engine.HttpRequest;

                final class Fields implements Headers {
                    io.sprout.engine.ServerConfig config;
                }
                """;

        List<String> violations = dependencies("io/sprout/engine/http/Fields.java", source).stream()
                .filter(dependency -> violation(dependency) != null)
                .map(Dependency::reference)
                .toList();

        assertThat(violations).containsExactly(ENGINE + ".HttpRequest", ENGINE + ".ServerConfig");
    }

    /** Why the dependency is not allowed, or {@code null} when it is. */
    static String violation(Dependency dependency) {
        if (ALLOWED_API_TYPES.getOrDefault(dependency.from(), Set.of()).contains(dependency.reference())) {
            return null;
        }
        return violation(dependency.from(), dependency.to());
    }

    /** Why {@code from} must not use {@code to}, or {@code null} when it may. */
    static String violation(String from, String to) {
        if (from.equals(to)) {
            return null;
        }
        Set<String> allowed = ALLOWED.get(from);
        if (allowed != null && !allowed.contains(to)) {
            return allowed.isEmpty()
                    ? from + " may use no other engine package"
                    : from + " may use only " + String.join(", ", new TreeSet<>(allowed));
        }
        if (TRANSPORT.equals(to) && !TRANSPORT_USERS.contains(from)) {
            return "only server and hello may use " + to;
        }
        return null;
    }

    /** Which packages each package uses, itself left out, from the dependencies of every file. */
    static Map<String, Set<String>> packageGraph(List<Dependency> dependencies) {
        Map<String, Set<String>> graph = new TreeMap<>();
        for (Dependency dependency : dependencies) {
            Set<String> uses = graph.computeIfAbsent(dependency.from(), from -> new TreeSet<>());
            if (!dependency.from().equals(dependency.to())) {
                uses.add(dependency.to());
            }
        }
        return graph;
    }

    /**
     * A cycle of {@code graph} as its path, the first package repeated at the end, or an empty list when there is
     * none. Depth first, in sorted order of packages and their uses, so a failure names the same cycle every run.
     */
    static List<String> cycle(Map<String, Set<String>> graph) {
        Set<String> finished = new HashSet<>();
        for (String start : new TreeSet<>(graph.keySet())) {
            List<String> cycle = cycleThrough(start, graph, new ArrayList<>(), finished);
            if (!cycle.isEmpty()) {
                return cycle;
            }
        }
        return List.of();
    }

    /**
     * The first cycle reached from {@code node}, which {@code path} leads to. A package on the path is being
     * explored, so reaching it again closes a cycle; a finished one was explored without finding any.
     */
    private static List<String> cycleThrough(String node, Map<String, Set<String>> graph, List<String> path,
            Set<String> finished) {
        int seen = path.indexOf(node);
        if (seen >= 0) {
            List<String> cycle = new ArrayList<>(path.subList(seen, path.size()));
            cycle.add(node);
            return cycle;
        }
        if (finished.contains(node)) {
            return List.of();
        }
        path.add(node);
        for (String next : new TreeSet<>(graph.getOrDefault(node, Set.of()))) {
            List<String> cycle = cycleThrough(next, graph, path, finished);
            if (!cycle.isEmpty()) {
                return cycle;
            }
        }
        path.removeLast();
        finished.add(node);
        return List.of();
    }

    /** The engine dependencies of one source file, {@code path} relative to the source root. */
    static List<Dependency> dependencies(String path, String source) {
        String from = packageOf(path);
        String code = withoutCommentsAndLiterals(source);
        List<Dependency> found = new ArrayList<>();
        Matcher imports = IMPORT.matcher(code);
        while (imports.find()) {
            String name = imports.group(1);
            found.add(new Dependency(path, lineOf(code, imports.start(1)), from, packageOfName(name), name));
        }
        // Fully qualified references in the code itself; the package and import lines are already accounted for.
        String body = blankOut(code, PACKAGE_OR_IMPORT);
        Matcher qualified = QUALIFIED.matcher(body);
        while (qualified.find()) {
            String segment = qualified.group(1);
            String to = Character.isUpperCase(segment.charAt(0)) ? ROOT : segment;
            String reference = to.equals(ROOT) ? ENGINE + "." + segment : ENGINE + "." + to;
            found.add(new Dependency(path, lineOf(body, qualified.start()), from, to, reference));
        }
        return found;
    }

    private static String describe(Dependency dependency, String reason) {
        return dependency.file() + ":" + dependency.line() + " uses " + dependency.reference() + ": " + reason;
    }

    private static String packageOf(String path) {
        String directory = path.contains("/") ? path.substring(0, path.lastIndexOf('/')) : "";
        String name = directory.replace('/', '.');
        if (name.equals(ENGINE)) {
            return ROOT;
        }
        if (!name.startsWith(ENGINE + ".")) {
            throw new IllegalArgumentException("not an engine source: " + path);
        }
        String rest = name.substring(ENGINE.length() + 1);
        return rest.contains(".") ? rest.substring(0, rest.indexOf('.')) : rest;
    }

    private static String packageOfName(String qualifiedName) {
        String rest = qualifiedName.substring(ENGINE.length() + 1);
        String first = rest.contains(".") ? rest.substring(0, rest.indexOf('.')) : rest;
        return Character.isUpperCase(first.charAt(0)) || first.equals("*") ? ROOT : first;
    }

    /**
     * Replaces comments, string, text-block and char literals with spaces, keeping line breaks, so references
     * in them are not mistaken for dependencies and line numbers stay right.
     */
    static String withoutCommentsAndLiterals(String source) {
        StringBuilder code = new StringBuilder(source.length());
        int i = 0;
        int length = source.length();
        while (i < length) {
            char c = source.charAt(i);
            int end;
            if (source.startsWith("//", i)) {
                end = source.indexOf('\n', i);
                end = end < 0 ? length : end;
            } else if (source.startsWith("/*", i)) {
                end = source.indexOf("*/", i + 2);
                end = end < 0 ? length : end + 2;
            } else if (source.startsWith("\"\"\"", i)) {
                end = source.indexOf("\"\"\"", i + 3);
                while (end > 0 && source.charAt(end - 1) == '\\') {
                    end = source.indexOf("\"\"\"", end + 1);
                }
                end = end < 0 ? length : end + 3;
            } else if (c == '"' || c == '\'') {
                end = i + 1;
                while (end < length && source.charAt(end) != c && source.charAt(end) != '\n') {
                    end += source.charAt(end) == '\\' ? 2 : 1;
                }
                end = Math.min(length, end + 1);
            } else {
                code.append(c);
                i++;
                continue;
            }
            for (int j = i; j < end; j++) {
                code.append(source.charAt(j) == '\n' ? '\n' : ' ');
            }
            i = end;
        }
        return code.toString();
    }

    private static String blankOut(String code, Pattern pattern) {
        StringBuilder blanked = new StringBuilder(code);
        Matcher matcher = pattern.matcher(code);
        while (matcher.find()) {
            for (int j = matcher.start(); j < matcher.end(); j++) {
                if (blanked.charAt(j) != '\n') {
                    blanked.setCharAt(j, ' ');
                }
            }
        }
        return blanked.toString();
    }

    private static int lineOf(String text, int index) {
        int line = 1;
        for (int i = 0; i < index; i++) {
            if (text.charAt(i) == '\n') {
                line++;
            }
        }
        return line;
    }

    private static List<Path> mainSources() {
        assertThat(SOURCES.resolve("io/sprout/engine")).as("engine sources (tests run in the module directory)")
                .isDirectory();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            // module-info.java belongs to no package; ModuleBoundaryTest checks what it exports.
            List<Path> sources = files.filter(file -> file.toString().endsWith(".java"))
                    .filter(file -> !file.getFileName().toString().equals("module-info.java")).sorted().toList();
            assertThat(sources).isNotEmpty();
            return sources;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String relative(Path file) {
        return SOURCES.relativize(file).toString().replace('\\', '/');
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
