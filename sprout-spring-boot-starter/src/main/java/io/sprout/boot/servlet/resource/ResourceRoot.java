package io.sprout.boot.servlet.resource;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Set;

/** One tree of resources mounted at the context root: a directory, or the {@code META-INF/resources} of a jar. */
sealed interface ResourceRoot extends AutoCloseable permits DirectoryRoot, JarRoot {

    /**
     * @param path normalised, starting with {@code /}
     * @return the resource, or {@code null} when this root has none at that path
     */
    ContextResource find(String path);

    /**
     * Adds the paths of the direct children of a directory, directories with a trailing {@code /}.
     *
     * @param directory normalised, starting and ending with {@code /}
     */
    void list(String directory, Set<String> into);

    /** Where a resource at this path would be on disk, or {@code null} when this root is not on disk. */
    Path fileFor(String path);

    @Override
    void close() throws IOException;
}
