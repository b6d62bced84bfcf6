package io.sprout.boot.servlet.resource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * The {@code META-INF/resources} of a jar, mounted at the context root (Servlet 6.1 §4.6; Boot finds these jars
 * with {@code StaticResourceJars}). The entries are indexed once when the root opens, including the directories a
 * jar only implies, so lookups and listings do not scan the jar.
 */
final class JarRoot implements ResourceRoot {

    static final String MOUNT = "META-INF/resources";

    private final JarFile jar;
    private final String base;
    /** Paths within the mount ({@code /css/site.css}, {@code /css/}) to their entry, or {@code null} if implied. */
    private final NavigableMap<String, JarEntry> entries;

    /**
     * @param jar the jar, owned (closed) by this root
     * @param base the jar's URL up to and including {@code !/}, e.g. {@code jar:file:/app/lib/x.jar!/}
     */
    JarRoot(JarFile jar, String base) {
        this.jar = jar;
        this.base = base;
        this.entries = index(jar);
    }

    private static NavigableMap<String, JarEntry> index(JarFile jar) {
        NavigableMap<String, JarEntry> index = new TreeMap<>();
        index.put("/", null);
        Enumeration<JarEntry> all = jar.entries();
        while (all.hasMoreElements()) {
            JarEntry entry = all.nextElement();
            String name = entry.getName();
            if (!name.startsWith(MOUNT + "/") || name.length() == MOUNT.length() + 1) {
                continue;
            }
            String path = name.substring(MOUNT.length());
            index.put(path, entry);
            for (int slash = path.lastIndexOf('/', path.length() - 2); slash > 0;
                    slash = path.lastIndexOf('/', slash - 1)) {
                index.putIfAbsent(path.substring(0, slash + 1), null);
            }
        }
        return index;
    }

    @Override
    public ContextResource find(String path) {
        if (entries.containsKey(path)) {
            return resource(path);
        }
        String asDirectory = path + "/";
        return path.endsWith("/") || !entries.containsKey(asDirectory) ? null : resource(asDirectory);
    }

    private ContextResource resource(String path) {
        return new JarResource(jar, entries.get(path), path.endsWith("/"), url(path));
    }

    @Override
    public void list(String directory, Set<String> into) {
        if (!entries.containsKey(directory)) {
            return;
        }
        for (String path : entries.subMap(directory, false, directory + Character.MAX_VALUE, false).keySet()) {
            int slash = path.indexOf('/', directory.length());
            if (slash < 0 || slash == path.length() - 1) {
                into.add(path);
            }
        }
    }

    @Override
    public Path fileFor(String path) {
        return null;
    }

    private URL url(String path) {
        try {
            return URI.create(base + MOUNT + encode(path)).toURL();
        } catch (MalformedURLException | IllegalArgumentException e) {
            throw new UncheckedIOException(new MalformedURLException("No URL for " + path + " in " + base));
        }
    }

    /** Percent-encodes what a URI path may not hold, keeping the {@code /} separators. */
    private static String encode(String path) {
        StringBuilder encoded = new StringBuilder(path.length());
        for (byte b : path.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || "/-._~!$&'()*+,;=:@"
                    .indexOf(c) >= 0) {
                encoded.append(c);
            } else {
                encoded.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
        return encoded.toString();
    }

    @Override
    public void close() throws IOException {
        jar.close();
    }

    @Override
    public String toString() {
        return base + MOUNT;
    }
}
