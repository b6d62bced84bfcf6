package io.sprout.boot.servlet.resource;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

/** Writes a static resource jar for tests: the given files under {@code META-INF/resources/}. */
public final class ResourceJar {

    private ResourceJar() {
    }

    /**
     * @param files paths below {@code META-INF/resources/} (no leading slash) to their text; the jar has explicit
     *     entries for {@code META-INF/} and {@code META-INF/resources/} only, so deeper directories are implied
     */
    public static Path write(Path jar, Map<String, String> files) throws IOException {
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream entries = new JarOutputStream(out)) {
            entries.putNextEntry(new JarEntry("META-INF/"));
            entries.putNextEntry(new JarEntry("META-INF/resources/"));
            entries.putNextEntry(new JarEntry("META-INF/other.txt"));
            entries.write("not a resource".getBytes(StandardCharsets.UTF_8));
            for (Map.Entry<String, String> file : files.entrySet()) {
                entries.putNextEntry(new JarEntry("META-INF/resources/" + file.getKey()));
                entries.write(file.getValue().getBytes(StandardCharsets.UTF_8));
            }
        }
        return jar;
    }
}
