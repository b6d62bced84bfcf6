package io.sprout.boot.web;

import io.sprout.boot.servlet.resource.ResourceJar;
import jakarta.servlet.ServletException;
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
import org.springframework.boot.web.server.Compression;
import org.springframework.boot.web.server.MimeMappings;
import org.springframework.boot.web.servlet.ServletContextInitializer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URL;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;

import static io.sprout.boot.web.WebServerUnderTest.servlet;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The default servlet ({@code server.servlet.register-default-servlet=true}) over a document root and a static
 * resource jar, in every engine combination: validators, MIME types from the factory, HEAD, conditional GET, single
 * byte ranges, no directory listing, no way out of the root and no {@code WEB-INF}/{@code META-INF}.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("io.sprout.boot.web.Engines#all")
class DefaultServletIT {

    /** A whole second: HTTP dates have no finer precision, so the header can be compared exactly. */
    private static final Instant MODIFIED = Instant.parse("2025-03-01T10:15:30Z");
    private static final String DATA = "0123456789".repeat(100);

    @Parameter
    Engines engines;

    @TempDir
    Path temp;

    private Path root;
    private URL jar;
    private WebServerUnderTest server;

    @BeforeEach
    void files() throws IOException {
        root = Files.createDirectories(temp.resolve("root"));
        write("style.css", "body { color: green }");
        write("data.bin", DATA);
        write("notes.sprout", "sprouting");
        write("shared.txt", "from the document root");
        write("sub/page.html", "<p>page</p>");
        write("WEB-INF/secret.txt", "web-inf secret");
        write("META-INF/secret.txt", "meta-inf secret");
        Files.writeString(temp.resolve("outside.txt"), "outside secret");
        jar = ResourceJar.write(temp.resolve("static.jar"), Map.of("webjars/app.js", "app()",
                "shared.txt", "from the jar")).toUri().toURL();
    }

    private void write(String path, String content) throws IOException {
        Path file = root.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
        Files.setLastModifiedTime(file, FileTime.from(MODIFIED));
    }

    @AfterEach
    void destroy() {
        if (server != null) {
            server.close();
        }
    }

    /** A factory with the document root and the jar, registering the default servlet unless told otherwise. */
    private SproutServletWebServerFactory factory(boolean registerDefaultServlet) {
        SproutServletWebServerFactory factory = new SproutServletWebServerFactory(0) {
            @Override
            List<URL> staticResourceUrls() {
                return List.of(jar);
            }
        };
        factory.setServerConfig(engines.config());
        factory.setDocumentRoot(root.toFile());
        factory.setRegisterDefaultServlet(registerDefaultServlet);
        factory.addMimeMappings(new MimeMappings(Map.of("sprout", "application/x-sprout")));
        return factory;
    }

    private void start(ServletContextInitializer... initializers) {
        server = WebServerUnderTest.start(factory(true), initializers);
    }

    private HttpResponse<String> get(String path, String... headers) {
        return server.get(path, headers);
    }

    @Test
    void servesAFileWithItsTypeLengthAndValidators() {
        start();
        HttpResponse<String> response = get("/style.css");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("body { color: green }");
        assertThat(response.headers().firstValue("Content-Type")).hasValue("text/css");
        assertThat(response.headers().firstValue("Content-Length")).hasValue("21");
        assertThat(response.headers().firstValue("Accept-Ranges")).hasValue("bytes");
        assertThat(response.headers().firstValue("ETag"))
                .hasValueSatisfying(tag -> assertThat(tag).matches("\"\\w+-\\w+\""));
        assertThat(response.headers().firstValue("Last-Modified").map(DefaultServletIT::parseHttpDate))
                .hasValue(MODIFIED);
    }

    @Test
    void servesAStaticResourceJarBehindTheDocumentRoot() {
        start();
        HttpResponse<String> script = get("/webjars/app.js");
        assertThat(script.statusCode()).isEqualTo(200);
        assertThat(script.body()).isEqualTo("app()");
        assertThat(script.headers().firstValue("Content-Type")).hasValue("text/javascript");
        assertThat(script.headers().firstValue("ETag")).isPresent();
        assertThat(get("/shared.txt").body()).isEqualTo("from the document root");
    }

    @Test
    void takesMimeTypesFromTheFactory() {
        start();
        assertThat(get("/notes.sprout").headers().firstValue("Content-Type")).hasValue("application/x-sprout");
        assertThat(get("/sub/page.html").headers().firstValue("Content-Type")).hasValue("text/html");
    }

    @Test
    void answersHeadWithTheHeadersOfGetAndNoBody() {
        start();
        HttpResponse<String> response = server.send(server.request("/data.bin")
                .method("HEAD", HttpRequest.BodyPublishers.noBody()));
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Length")).hasValue("1000");
        assertThat(response.headers().firstValue("ETag")).isEqualTo(get("/data.bin").headers().firstValue("ETag"));
        assertThat(response.body()).isEmpty();
    }

    @Test
    void answersConditionalGetsWith304() {
        start();
        String etag = get("/style.css").headers().firstValue("ETag").orElseThrow();
        String lastModified = get("/style.css").headers().firstValue("Last-Modified").orElseThrow();
        HttpResponse<String> notModified = get("/style.css", "If-None-Match", etag);
        assertThat(notModified.statusCode()).isEqualTo(304);
        assertThat(notModified.body()).isEmpty();
        assertThat(notModified.headers().firstValue("ETag")).hasValue(etag);
        assertThat(get("/style.css", "If-None-Match", "W/" + etag).statusCode()).isEqualTo(304);
        assertThat(get("/style.css", "If-None-Match", "\"other\"").statusCode()).isEqualTo(200);
        assertThat(get("/style.css", "If-Modified-Since", lastModified).statusCode()).isEqualTo(304);
        assertThat(get("/style.css", "If-Modified-Since", httpDate(MODIFIED.minusSeconds(60))).statusCode())
                .isEqualTo(200);
        assertThat(get("/style.css", "If-Modified-Since", "not a date").statusCode()).isEqualTo(200);
    }

    @Test
    void failsPreconditionsWith412() {
        start();
        String etag = get("/style.css").headers().firstValue("ETag").orElseThrow();
        assertThat(get("/style.css", "If-Match", "\"other\"").statusCode()).isEqualTo(412);
        assertThat(get("/style.css", "If-Match", etag).statusCode()).isEqualTo(200);
        assertThat(get("/style.css", "If-Unmodified-Since", httpDate(MODIFIED.minusSeconds(60))).statusCode())
                .isEqualTo(412);
        assertThat(get("/style.css", "If-Unmodified-Since", httpDate(MODIFIED)).statusCode()).isEqualTo(200);
    }

    @Test
    void servesOneByteRangeWith206() {
        start();
        HttpResponse<String> middle = get("/data.bin", "Range", "bytes=10-19");
        assertThat(middle.statusCode()).isEqualTo(206);
        assertThat(middle.headers().firstValue("Content-Range")).hasValue("bytes 10-19/1000");
        assertThat(middle.headers().firstValue("Content-Length")).hasValue("10");
        assertThat(middle.body()).isEqualTo(DATA.substring(10, 20));
        assertThat(get("/data.bin", "Range", "bytes=-5").body()).isEqualTo(DATA.substring(995));
        assertThat(get("/data.bin", "Range", "bytes=990-").body()).isEqualTo(DATA.substring(990));
        assertThat(get("/webjars/app.js", "Range", "bytes=1-2").body()).isEqualTo("pp");
    }

    @Test
    void refusesARangePastTheEndWith416() {
        start();
        HttpResponse<String> response = get("/data.bin", "Range", "bytes=1000-");
        assertThat(response.statusCode()).isEqualTo(416);
        assertThat(response.headers().firstValue("Content-Range")).hasValue("bytes */1000");
    }

    @Test
    void sendsTheWholeFileForRangesItDoesNotHonourOrAStaleIfRange() {
        start();
        HttpResponse<String> several = get("/data.bin", "Range", "bytes=0-1,5-6");
        assertThat(several.statusCode()).isEqualTo(200);
        assertThat(several.body()).isEqualTo(DATA);
        assertThat(get("/data.bin", "Range", "bytes=0-1", "If-Range", "\"stale\"").statusCode()).isEqualTo(200);
        String etag = get("/data.bin").headers().firstValue("ETag").orElseThrow();
        assertThat(get("/data.bin", "Range", "bytes=0-1", "If-Range", etag).statusCode()).isEqualTo(206);
        assertThat(get("/data.bin", "Range", "bytes=0-1", "If-Range", httpDate(MODIFIED)).statusCode())
                .isEqualTo(206);
    }

    @Test
    void aCompressedFileGetsAWeakTagAndARangeOfItStaysUncompressed() throws IOException {
        write("big.txt", DATA.repeat(5));
        SproutServletWebServerFactory factory = factory(true);
        Compression compression = new Compression();
        compression.setEnabled(true);
        factory.setCompression(compression);
        server = WebServerUnderTest.start(factory);
        HttpResponse<byte[]> whole = server.sendForBytes(server.request("/big.txt", "Accept-Encoding", "gzip"));
        assertThat(whole.headers().firstValue("Content-Encoding")).hasValue("gzip");
        assertThat(whole.headers().firstValue("ETag")).hasValueSatisfying(tag -> assertThat(tag).startsWith("W/\""));
        HttpResponse<byte[]> part = server.sendForBytes(server.request("/big.txt", "Accept-Encoding", "gzip",
                "Range", "bytes=0-2999"));
        assertThat(part.statusCode()).isEqualTo(206);
        assertThat(part.headers().firstValue("Content-Encoding")).isEmpty();
        assertThat(new String(part.body(), StandardCharsets.US_ASCII)).isEqualTo(DATA.repeat(3));
    }

    @Test
    void neverListsADirectory() {
        start();
        assertThat(get("/").statusCode()).isEqualTo(404);
        assertThat(get("/sub/").statusCode()).isEqualTo(404);
        assertThat(get("/sub").statusCode()).isEqualTo(404);
        assertThat(get("/webjars/").statusCode()).isEqualTo(404);
        assertThat(get("/missing.txt").statusCode()).isEqualTo(404);
    }

    @Test
    void neverServesWebInfOrMetaInf() {
        start();
        for (String path : List.of("/WEB-INF/secret.txt", "/web-inf/secret.txt", "/META-INF/secret.txt",
                "/sub/../WEB-INF/secret.txt", "/sub/%2e%2e/WEB-INF/secret.txt", "/./META-INF/secret.txt",
                "/WEB-INF/", "/META-INF/resources/webjars/app.js")) {
            HttpResponse<String> response = get(path);
            assertThat(response.statusCode()).as(path).isEqualTo(404);
            assertThat(response.body()).as(path).doesNotContain("secret", "app()");
        }
    }

    /** A path that climbs out of the context, or hides a separator, is refused before any servlet: 400, as Tomcat. */
    @Test
    void refusesPathsThatLeaveTheRoot() throws IOException {
        start();
        for (String path : List.of("/../outside.txt", "/%2e%2e/outside.txt", "/sub/%2e%2e/%2E%2E/outside.txt",
                "/..%2foutside.txt", "/sub/..%5c..%5coutside.txt", "/sub%00/../../outside.txt")) {
            HttpResponse<String> response = get(path);
            assertThat(response.statusCode()).as(path).isEqualTo(400);
            assertThat(response.body()).as(path).doesNotContain("secret");
        }
        assertThat(rawStatusLine("GET /sub\\..\\..\\outside.txt HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n"))
                .startsWith("HTTP/1.1 400");
    }

    @Test
    void yieldsSlashToTheApplicationsServletAndStaysReachableByName() {
        start(servlet("/", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException,
                    ServletException {
                if (req.getServletPath().endsWith(".css")) {
                    // What Spring MVC's DefaultServletHttpRequestHandler does for configureDefaultServletHandling.
                    req.getServletContext().getNamedDispatcher("default").forward(req, resp);
                } else {
                    resp.getWriter().print("application");
                }
            }
        }));
        assertThat(get("/anything").body()).isEqualTo("application");
        HttpResponse<String> forwarded = get("/style.css");
        assertThat(forwarded.statusCode()).isEqualTo(200);
        assertThat(forwarded.body()).isEqualTo("body { color: green }");
    }

    @Test
    void isNotRegisteredUnlessAskedFor() {
        server = WebServerUnderTest.start(factory(false), servlet("/probe", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                resp.getWriter().print(req.getServletContext().getNamedDispatcher("default") == null);
            }
        }));
        assertThat(get("/style.css").statusCode()).isEqualTo(404);
        assertThat(get("/probe").body()).isEqualTo("true");
    }

    private static Instant parseHttpDate(String value) {
        return ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
    }

    private static String httpDate(Instant instant) {
        return DateTimeFormatter.RFC_1123_DATE_TIME.format(instant.atZone(ZoneOffset.UTC));
    }

    /** Sends bytes no URI class would accept and returns the status line. */
    private String rawStatusLine(String request) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            socket.setSoTimeout(20_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            String response = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            return response.substring(0, Math.max(0, response.indexOf("\r\n")));
        }
    }
}
