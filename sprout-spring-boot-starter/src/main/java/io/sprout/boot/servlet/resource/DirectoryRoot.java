package io.sprout.boot.servlet.resource;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Set;

/**
 * Resources in a directory of the file system: the document root, a temporary root, or the
 * {@code META-INF/resources} folder of a class path directory. A file reached through a symbolic link that leads
 * out of the root is not found (Tomcat's default, {@code allowLinking=false}, is stricter still).
 */
record DirectoryRoot(Path root) implements ResourceRoot {

    DirectoryRoot {
        root = root.toAbsolutePath().normalize();
    }

    @Override
    public ContextResource find(String path) {
        Path file = fileFor(path);
        try {
            if (!file.toRealPath().startsWith(root.toRealPath())) {
                return null;
            }
            BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
            boolean directory = attributes.isDirectory();
            return new FileResource(file, directory, directory ? 0 : attributes.size(),
                    attributes.lastModifiedTime().toMillis());
        } catch (IOException e) {
            // Missing or unreadable: absent, which is all the Servlet API can say about it.
            return null;
        }
    }

    @Override
    public void list(String directory, Set<String> into) {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(fileFor(directory))) {
            for (Path entry : entries) {
                into.add(directory + entry.getFileName() + (Files.isDirectory(entry) ? "/" : ""));
            }
        } catch (IOException e) {
            // Not a directory here, or unreadable: it contributes nothing, as if absent.
        }
    }

    @Override
    public Path fileFor(String path) {
        return root.resolve(path.substring(1));
    }

    @Override
    public void close() {
    }
}
