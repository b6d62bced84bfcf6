package io.sprout.boot.servlet.resource;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The context's resource tree: a document root, then a static resource jar and a class path directory with
 * {@code META-INF/resources}, the first root to have a path winning.
 */
class ContextResourcesTest {

    @TempDir
    Path temp;

    private Path root;
    private ContextResources resources;

    @BeforeEach
    void open() throws IOException {
        root = Files.createDirectories(temp.resolve("root"));
        Files.writeString(root.resolve("index.html"), "<h1>root</h1>");
        Files.writeString(root.resolve("shared.txt"), "from the root");
        Files.createDirectories(root.resolve("sub"));
        Files.writeString(root.resolve("sub/page.txt"), "page");
        Files.writeString(temp.resolve("outside.txt"), "secret");
        Path jar = ResourceJar.write(temp.resolve("static.jar"), Map.of("webjars/lib/lib.js", "lib()",
                "shared.txt", "from the jar", "sub/from-jar.txt", "jar page", "a b.txt", "spaced"));
        Path classes = Files.createDirectories(temp.resolve("classes/META-INF/resources/css"));
        Files.writeString(classes.resolve("site.css"), "body{}");
        resources = ContextResources.open(root, List.of(jar.toUri().toURL(), temp.resolve("classes").toUri().toURL()));
    }

    @AfterEach
    void close() {
        resources.close();
    }

    private static String read(URL url) throws IOException {
        try (InputStream in = url.openStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void findsFilesOfEveryRootAndTheDocumentRootWins() throws IOException {
        assertThat(read(resources.url("/index.html"))).isEqualTo("<h1>root</h1>");
        assertThat(read(resources.url("/shared.txt"))).isEqualTo("from the root");
        assertThat(read(resources.url("/webjars/lib/lib.js"))).isEqualTo("lib()");
        assertThat(read(resources.url("/css/site.css"))).isEqualTo("body{}");
        assertThat(read(resources.url("/a b.txt"))).isEqualTo("spaced");
        assertThat(resources.url("/webjars/lib/lib.js").toString()).startsWith("jar:file:")
                .endsWith("!/META-INF/resources/webjars/lib/lib.js");
    }

    @Test
    void describesAJarEntryWithItsLengthAndTime() throws IOException {
        ContextResource resource = resources.find("/webjars/lib/lib.js");
        assertThat(resource.directory()).isFalse();
        assertThat(resource.length()).isEqualTo(5);
        assertThat(resource.lastModified()).isPositive();
        assertThat(resource.file()).isNull();
        try (InputStream in = resource.open()) {
            assertThat(in.readAllBytes()).asString().isEqualTo("lib()");
        }
    }

    @Test
    void directoriesAreFoundWithOrWithoutTheirSlashIncludingOnesAJarOnlyImplies() throws MalformedURLException {
        assertThat(resources.find("/sub").directory()).isTrue();
        assertThat(resources.find("/webjars/lib").directory()).isTrue();
        assertThat(resources.find("/webjars/").directory()).isTrue();
        assertThat(resources.find("/").directory()).isTrue();
        assertThat(resources.url("/").toString()).isEqualTo(root.toUri().toURL().toString()).endsWith("/");
    }

    @Test
    void listsTheChildrenOfADirectoryAcrossRoots() {
        assertThat(resources.paths("/")).containsExactlyInAnyOrder("/index.html", "/shared.txt", "/sub/",
                "/webjars/", "/a b.txt", "/css/");
        assertThat(resources.paths("/sub")).containsExactlyInAnyOrder("/sub/page.txt", "/sub/from-jar.txt");
        assertThat(resources.paths("/webjars/")).containsExactly("/webjars/lib/");
        assertThat(resources.paths("/missing/")).isNull();
        assertThat(resources.paths("/index.html")).isNull();
    }

    @Test
    void opensFilesButNotDirectoriesOrMissingPaths() throws IOException {
        try (InputStream in = resources.open("/sub/from-jar.txt")) {
            assertThat(in.readAllBytes()).asString().isEqualTo("jar page");
        }
        assertThat(resources.open("/sub")).isNull();
        assertThat(resources.open("/missing.txt")).isNull();
    }

    @Test
    void realPathsAreOnDiskOnly() {
        assertThat(resources.realPath("/index.html")).isEqualTo(root.resolve("index.html").toString());
        assertThat(resources.realPath("/not-yet.txt")).isEqualTo(root.resolve("not-yet.txt").toString());
        assertThat(resources.realPath("/webjars/lib/lib.js")).isNull();
        assertThat(resources.realPath("/css/site.css")).isEqualTo(
                temp.resolve("classes/META-INF/resources/css/site.css").toString());
    }

    @Test
    void neverLeavesARoot() throws IOException {
        assertThat(resources.find("/../outside.txt")).isNull();
        assertThat(resources.find("/sub/../../outside.txt")).isNull();
        assertThat(resources.find("/sub\\..\\..\\outside.txt")).isNull();
        assertThat(resources.find("/sub/%2e%2e/%2e%2e/outside.txt")).isNull();
        assertThat(resources.realPath("/../outside.txt")).isNull();
        assertThat(resources.paths("/..")).isNull();
        assertThat(resources.find("/../static.jar")).isNull();
        Files.createSymbolicLink(root.resolve("link.txt"), temp.resolve("outside.txt"));
        assertThat(resources.find("/link.txt")).isNull();
    }

    @Test
    void normalisesDotSegmentsWithinTheRoot() {
        assertThat(resources.find("/sub/./../index.html")).isNotNull();
        assertThat(resources.find("//sub//page.txt")).isNotNull();
    }

    @Test
    void aResourcePathMustStartWithASlash() {
        assertThatExceptionOfType(MalformedURLException.class).isThrownBy(() -> resources.url("index.html"));
        assertThat(resources.open("index.html")).isNull();
        assertThat(resources.realPath("index.html")).isNull();
    }

    @Test
    void skipsStaticResourceLocationsItCannotOpen() throws IOException {
        Path notAJar = Files.writeString(temp.resolve("broken.jar"), "not a zip");
        try (ContextResources partial = ContextResources.open(root, List.of(notAJar.toUri().toURL()))) {
            assertThat(partial.find("/index.html")).isNotNull();
        }
    }
}
