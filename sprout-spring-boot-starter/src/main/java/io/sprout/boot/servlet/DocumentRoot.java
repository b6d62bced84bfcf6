package io.sprout.boot.servlet;

import io.sprout.boot.servlet.mapping.RequestPaths;

import java.io.IOException;
import java.io.InputStream;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The context's resources ({@code getResource}, {@code getResourcePaths}, {@code getRealPath}) under
 * {@code server.servlet.document-root}; without a document root there are none. Paths are normalised like
 * request paths, so {@code ..} cannot escape the root.
 */
final class DocumentRoot {

    private final Path root;

    /** @param root the directory, or {@code null} for none */
    DocumentRoot(Path root) {
        this.root = root;
    }

    Path resolve(String path) {
        if (root == null || path == null) {
            return null;
        }
        String normalized = RequestPaths.normalize(path);
        return normalized == null ? null : root.resolve(normalized.substring(1));
    }

    Set<String> paths(String path) {
        Path directory = resolve(path);
        if (directory == null || !Files.isDirectory(directory)) {
            return null;
        }
        Set<String> paths = new LinkedHashSet<>();
        String base = path.endsWith("/") ? path : path + "/";
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory)) {
            for (Path entry : entries) {
                paths.add(base + entry.getFileName() + (Files.isDirectory(entry) ? "/" : ""));
            }
        } catch (IOException e) {
            // An unreadable directory has no listable resources, as if it were absent.
            return null;
        }
        return paths;
    }

    URL url(String path) throws MalformedURLException {
        if (path == null || !path.startsWith("/")) {
            throw new MalformedURLException("Resource path must start with '/': " + path);
        }
        Path file = resolve(path);
        return file != null && Files.exists(file) ? file.toUri().toURL() : null;
    }

    InputStream open(String path) {
        Path file = resolve(path);
        try {
            return file != null && Files.isRegularFile(file) ? Files.newInputStream(file) : null;
        } catch (IOException e) {
            // Unreadable means absent for getResourceAsStream, which has no way to report errors.
            return null;
        }
    }
}
