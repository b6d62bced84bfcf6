package io.sprout.boot.servlet.resource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.MalformedURLException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;

/**
 * The resources of the context, as Tomcat and Jetty assemble them for Boot: the document root first (Boot's
 * {@code DocumentRoot}, or a temporary directory when the application has none, so {@code getResource("/")} and
 * {@code getRealPath} always have somewhere to point), then the {@code META-INF/resources} of each static resource
 * jar or class path directory in class path order. The first root that has a path wins.
 *
 * <p>Thread-safe after construction; closed (its jars released) when the context is destroyed.
 */
public final class ContextResources implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ContextResources.class);

    private final List<ResourceRoot> roots;

    private ContextResources(List<ResourceRoot> roots) {
        this.roots = List.copyOf(roots);
    }

    /**
     * @param documentRoot the document root directory (or the temporary one standing in for it)
     * @param staticResourceUrls class path entries with a {@code META-INF/resources} folder: {@code file:} URLs of
     *     jars or directories, or {@code jar:} URLs of nested jars ending in {@code !/}
     */
    public static ContextResources open(Path documentRoot, List<URL> staticResourceUrls) {
        List<ResourceRoot> roots = new ArrayList<>();
        roots.add(new DirectoryRoot(documentRoot));
        for (URL url : staticResourceUrls) {
            try {
                ResourceRoot root = staticRoot(url);
                if (root != null) {
                    roots.add(root);
                }
            } catch (IOException | URISyntaxException | RuntimeException e) {
                // Tomcat and Jetty skip an entry they cannot mount too: its resources are simply not there.
                LOG.warn("Ignoring the static resources of {}: {}", url, e.toString());
            }
        }
        return new ContextResources(roots);
    }

    private static ResourceRoot staticRoot(URL url) throws IOException, URISyntaxException {
        if ("file".equals(url.getProtocol())) {
            Path path = Path.of(url.toURI());
            return Files.isDirectory(path) ? new DirectoryRoot(path.resolve(JarRoot.MOUNT))
                    : new JarRoot(new JarFile(path.toFile()), "jar:" + url + "!/");
        }
        URLConnection connection = url.openConnection();
        if (connection instanceof JarURLConnection jarConnection) {
            // Uncached: this root owns the JarFile and closes it with the context.
            jarConnection.setUseCaches(false);
            String base = url.toString();
            return new JarRoot(jarConnection.getJarFile(), base.endsWith("!/") ? base : base + "!/");
        }
        LOG.debug("Ignoring static resources at {}: neither a file nor a jar", url);
        return null;
    }

    /** The resource at a path, or {@code null} when the path is refused or no root has it. */
    public ContextResource find(String path) {
        String normalized = ResourcePaths.normalize(path);
        if (normalized == null) {
            return null;
        }
        for (ResourceRoot root : roots) {
            ContextResource resource = root.find(normalized);
            if (resource != null) {
                return resource;
            }
        }
        return null;
    }

    /** {@code ServletContext.getResource}: {@code null} when absent. */
    public URL url(String path) throws MalformedURLException {
        if (path == null || !path.startsWith("/")) {
            throw new MalformedURLException("A resource path must start with '/': " + path);
        }
        ContextResource resource = find(path);
        return resource == null ? null : resource.url();
    }

    /** {@code ServletContext.getResourceAsStream}: {@code null} when absent, a directory or unreadable. */
    public InputStream open(String path) {
        ContextResource resource = find(path);
        if (resource == null || resource.directory()) {
            return null;
        }
        try {
            return resource.open();
        } catch (IOException e) {
            // getResourceAsStream has no way to report a failure: unreadable means absent.
            return null;
        }
    }

    /**
     * {@code ServletContext.getResourcePaths}: the direct children of a directory across every root, directories
     * ending in {@code /}; {@code null} when there are none.
     */
    public Set<String> paths(String path) {
        String normalized = ResourcePaths.normalize(path);
        if (normalized == null) {
            return null;
        }
        String directory = normalized.endsWith("/") ? normalized : normalized + "/";
        Set<String> paths = new TreeSet<>();
        for (ResourceRoot root : roots) {
            root.list(directory, paths);
        }
        return paths.isEmpty() ? null : new LinkedHashSet<>(paths);
    }

    /**
     * {@code ServletContext.getRealPath}: the file of a resource on disk; {@code null} for one inside a jar; for a
     * path no root has, where it would be in the document root (Tomcat's answer, which lets applications create
     * files there).
     */
    public String realPath(String path) {
        String normalized = ResourcePaths.normalize(path);
        if (normalized == null) {
            return null;
        }
        ContextResource resource = find(normalized);
        if (resource != null) {
            return resource.file() == null ? null : resource.file().toString();
        }
        Path file = roots.getFirst().fileFor(normalized);
        return file == null ? null : file.toString();
    }

    @Override
    public void close() {
        for (ResourceRoot root : roots) {
            try {
                root.close();
            } catch (IOException e) {
                LOG.debug("Closing the static resources of {} failed", root, e);
            }
        }
    }
}
