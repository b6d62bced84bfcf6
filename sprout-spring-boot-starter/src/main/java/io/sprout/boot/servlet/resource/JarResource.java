package io.sprout.boot.servlet.resource;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * An entry under {@code META-INF/resources} of a static resource jar; a directory the jar only implies (it has
 * entries below it but no entry of its own) has no {@code entry}.
 */
record JarResource(JarFile jar, JarEntry entry, boolean directory, URL url) implements ContextResource {

    @Override
    public long length() {
        return entry == null || directory ? 0 : Math.max(entry.getSize(), 0);
    }

    @Override
    public long lastModified() {
        return entry == null ? 0 : Math.max(entry.getTime(), 0);
    }

    @Override
    public InputStream open() throws IOException {
        if (directory) {
            throw new IOException(url + " is a directory");
        }
        return jar.getInputStream(entry);
    }

    @Override
    public Path file() {
        return null;
    }
}
