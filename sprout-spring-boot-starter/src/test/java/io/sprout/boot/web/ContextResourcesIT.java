package io.sprout.boot.web;

import io.sprout.boot.servlet.resource.ResourceJar;
import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

import static io.sprout.boot.web.WebServerUnderTest.servlet;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@code ServletContext.getResource}, {@code getResourceAsStream}, {@code getResourcePaths} and {@code getRealPath}
 * with a document root, without one (a temporary root, as on Tomcat and Jetty), and with a static resource jar, in
 * every engine combination. The context is captured by a servlet so the calls run as an application makes them.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("io.sprout.boot.web.Engines#all")
class ContextResourcesIT {

    @Parameter
    Engines engines;

    @TempDir
    Path temp;

    private Path root;
    private URL jar;
    private WebServerUnderTest server;
    private final AtomicReference<ServletContext> context = new AtomicReference<>();

    @BeforeEach
    void files() throws IOException {
        root = Files.createDirectories(temp.resolve("root"));
        Files.writeString(root.resolve("index.html"), "<h1>index</h1>");
        Files.createDirectories(root.resolve("WEB-INF"));
        Files.writeString(root.resolve("WEB-INF/config.txt"), "config");
        Files.writeString(temp.resolve("outside.txt"), "outside");
        jar = ResourceJar.write(temp.resolve("static.jar"), Map.of("webjars/lib.js", "lib()")).toUri().toURL();
    }

    @AfterEach
    void destroy() {
        if (server != null) {
            server.close();
        }
    }

    private void start(Path documentRoot, List<URL> staticResources) {
        SproutServletWebServerFactory factory = new SproutServletWebServerFactory(0) {
            @Override
            List<URL> staticResourceUrls() {
                return staticResources;
            }
        };
        factory.setServerConfig(engines.config());
        factory.setDocumentRoot(documentRoot == null ? null : documentRoot.toFile());
        server = WebServerUnderTest.start(factory, servlet("/capture", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) {
                context.set(req.getServletContext());
            }
        }));
        assertThat(server.get("/capture").statusCode()).isEqualTo(200);
    }

    private static String read(InputStream in) throws IOException {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void resolvesResourcesInTheDocumentRoot() throws Exception {
        start(root, List.of());
        ServletContext servletContext = context.get();
        assertThat(Path.of(servletContext.getResource("/").toURI())).isEqualTo(root);
        assertThat(read(servletContext.getResource("/index.html").openStream())).isEqualTo("<h1>index</h1>");
        assertThat(read(servletContext.getResourceAsStream("/WEB-INF/config.txt"))).isEqualTo("config");
        assertThat(servletContext.getRealPath("/index.html")).isEqualTo(root.resolve("index.html").toString());
        assertThat(servletContext.getResourcePaths("/")).containsExactlyInAnyOrder("/index.html", "/WEB-INF/");
        assertThat(servletContext.getResourcePaths("/WEB-INF")).containsExactly("/WEB-INF/config.txt");
        assertThat(servletContext.getResource("/missing.txt")).isNull();
        assertThat(servletContext.getResourceAsStream("/missing.txt")).isNull();
        assertThat(servletContext.getResourcePaths("/missing/")).isNull();
    }

    @Test
    void neverResolvesOutsideTheRoot() throws Exception {
        start(root, List.of());
        ServletContext servletContext = context.get();
        assertThat(servletContext.getResource("/../outside.txt")).isNull();
        assertThat(servletContext.getResourceAsStream("/WEB-INF/../../outside.txt")).isNull();
        assertThat(servletContext.getRealPath("/../outside.txt")).isNull();
        assertThat(servletContext.getResourcePaths("/../")).isNull();
        assertThatExceptionOfType(MalformedURLException.class)
                .isThrownBy(() -> servletContext.getResource("index.html"));
    }

    @Test
    void usesATemporaryRootWithoutADocumentRoot() throws Exception {
        start(null, List.of());
        ServletContext servletContext = context.get();
        URL rootUrl = servletContext.getResource("/");
        assertThat(rootUrl).isNotNull();
        Path temporaryRoot = Path.of(rootUrl.toURI());
        File tempDir = (File) servletContext.getAttribute(ServletContext.TEMPDIR);
        assertThat(temporaryRoot).isDirectory().startsWith(tempDir.toPath());
        assertThat(servletContext.getResourcePaths("/")).isNull();
        String realPath = servletContext.getRealPath("/generated.txt");
        assertThat(Path.of(realPath).getParent()).isEqualTo(temporaryRoot);
        Files.writeString(Path.of(realPath), "written by the application");
        assertThat(read(servletContext.getResourceAsStream("/generated.txt"))).isEqualTo("written by the application");
        assertThat(servletContext.getResourcePaths("/")).containsExactly("/generated.txt");
    }

    @Test
    void servesTheMetaInfResourcesOfAStaticResourceJar() throws Exception {
        start(root, List.of(jar));
        ServletContext servletContext = context.get();
        URL script = servletContext.getResource("/webjars/lib.js");
        assertThat(script.getProtocol()).isEqualTo("jar");
        assertThat(read(script.openStream())).isEqualTo("lib()");
        assertThat(read(servletContext.getResourceAsStream("/webjars/lib.js"))).isEqualTo("lib()");
        assertThat(servletContext.getRealPath("/webjars/lib.js")).isNull();
        Set<String> top = servletContext.getResourcePaths("/");
        assertThat(top).containsExactlyInAnyOrder("/index.html", "/WEB-INF/", "/webjars/");
        assertThat(servletContext.getResourcePaths("/webjars/")).containsExactly("/webjars/lib.js");
        assertThat(servletContext.getResource("/other.txt")).as("META-INF outside resources/ is not mounted").isNull();
    }

    @Test
    void translatesThePathInfoThroughTheRealPath() {
        SproutServletWebServerFactory factory = WebServerUnderTest.factory(engines);
        factory.setDocumentRoot(root.toFile());
        server = WebServerUnderTest.start(factory, servlet("/files/*", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                resp.getWriter().print(req.getPathTranslated());
            }
        }));
        assertThat(server.get("/files/index.html").body()).isEqualTo(root.resolve("index.html").toString());
    }
}
