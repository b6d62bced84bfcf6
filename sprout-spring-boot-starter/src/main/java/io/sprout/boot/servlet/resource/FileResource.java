package io.sprout.boot.servlet.resource;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;

/** A file or directory of a directory root. */
record FileResource(Path file, boolean directory, long length, long lastModified) implements ContextResource {

    @Override
    public URL url() {
        try {
            return file.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public InputStream open() throws IOException {
        return Files.newInputStream(file);
    }
}
